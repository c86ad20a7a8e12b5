import Foundation
import Testing
import TestSupport
@testable import Ubiquity

@Suite("Device sandboxes")
struct DeviceSandboxTests {
    let directory = TemporaryDirectory("sandbox")

    @Test(arguments: ["", ".hidden", "a/b", "tab\there", String(repeating: "x", count: 65)])
    func badDeviceNamesAreRefused(_ name: String) {
        #expect(throws: SandboxError.self) { _ = try DeviceSandbox(dataDirectory: directory.url, device: name) }
    }

    @Test func thePeerIDIsMadeOnceAndKept() throws {
        let sandbox = try DeviceSandbox(dataDirectory: directory.url, device: "kitchen")
        try sandbox.prepare()
        let first = try sandbox.peerID()
        #expect(try sandbox.peerID() == first)
    }

    @Test func anUnwritableDataDirectoryIsReported() throws {
        let file = directory.file("a-file")
        try Data("x".utf8).write(to: file)
        let sandbox = try DeviceSandbox(dataDirectory: file, device: "kitchen")
        #expect(throws: SandboxError.self) { try sandbox.prepare() }
    }

    @Test func aSecondLockOnADeviceNamesTheHolder() throws {
        let sandbox = try DeviceSandbox(dataDirectory: directory.url, device: "kitchen")
        try sandbox.prepare()
        let lock = try DeviceLock(sandbox: sandbox, command: "grocery-dude tui")
        #expect(throws: SandboxError.deviceInUse(device: "kitchen", pid: getpid(), command: "grocery-dude tui")) {
            _ = try DeviceLock(sandbox: sandbox, command: "another")
        }
        withExtendedLifetime(lock) {}
    }

    @Test func aLockIsFreeAgainOnceReleased() throws {
        let sandbox = try DeviceSandbox(dataDirectory: directory.url, device: "kitchen")
        try sandbox.prepare()
        do { _ = try DeviceLock(sandbox: sandbox, command: "first") }
        _ = try DeviceLock(sandbox: sandbox, command: "second")
    }

    @Test func atomicWritesLeaveNoTempFiles() throws {
        let target = directory.file("file.json")
        try AtomicFile.write(Data("one".utf8), to: target)
        try AtomicFile.write(Data("two".utf8), to: target)
        #expect(try String(contentsOf: target, encoding: .utf8) == "two")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["file.json"])
    }
}
