import Foundation
import StoreLifecycle
import TestSupport
import Testing
import TextAndFiles
import Ubiquity

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

    /// Read by hand in the form this program writes, by `JSONDecoder` in any other: the same ID
    /// either way, and no form of a valid file is taken for a damaged one (kept aside, rewritten).
    @Test(arguments: [
        #"{"peerID":"%@"}"#, #"{"peerID":"%@"}"# + "\n", #"{ "peerID" : "%@" }"#,
        #"{"formerPeerIDs":["0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"],"peerID":"%@"}"#,
    ])
    func aStoredPeerIDIsReadInAnyFormOfItsFile(_ form: String) throws {
        let sandbox = try DeviceSandbox(dataDirectory: directory.url, device: "kitchen")
        try sandbox.prepare()
        let id = "1A2B3C4D-5E6F-4A8B-9C0D-E1F2A3B4C5D6"
        let contents = Data(form.replacingOccurrences(of: "%@", with: id).utf8)
        try contents.write(to: sandbox.identityFileURL)
        #expect(try sandbox.peerID() == id.lowercased())
        #expect(try Data(contentsOf: sandbox.identityFileURL) == contents)
    }

    @Test func anUnwritableDataDirectoryIsReported() throws {
        let file = directory.file("a-file")
        try Data("x".utf8).write(to: file)
        let sandbox = try DeviceSandbox(dataDirectory: file, device: "kitchen")
        #expect(throws: FileError.self) { try sandbox.prepare() }
    }

    @Test func aLockNamesItsHolderAndIsFreeOnceReleased() throws {
        let sandbox = try DeviceSandbox(dataDirectory: directory.url, device: "kitchen")
        try sandbox.prepare()
        var holder: DeviceLock? = try DeviceLock(sandbox: sandbox, command: "grocery-dude tui")
        #expect(throws: SandboxError.deviceInUse(device: "kitchen", pid: getpid(), command: "grocery-dude tui")) {
            _ = try DeviceLock(sandbox: sandbox, command: "another")
        }
        withExtendedLifetime(holder) {}
        holder = nil
        // Released: the next one takes it, and is named as the holder in its turn.
        let next = try DeviceLock(sandbox: sandbox, command: "second")
        #expect(throws: SandboxError.deviceInUse(device: "kitchen", pid: getpid(), command: "second")) {
            _ = try DeviceLock(sandbox: sandbox, command: "third")
        }
        withExtendedLifetime(next) {}
    }

    @Test func devicesStartedTogetherShareOnePeerID() throws {
        let sandbox = try DeviceSandbox(dataDirectory: directory.url, device: "kitchen")
        try sandbox.prepare()
        final class IDs: @unchecked Sendable {
            let lock = NSLock()
            var values: Set<String> = []
        }
        let ids = IDs()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            if let id = try? sandbox.peerID() { ids.lock.withLock { _ = ids.values.insert(id) } }
        }
        #expect(ids.values.count == 1)
        #expect(ids.values.first == (try sandbox.peerID()))
    }
}
