import Foundation
import TestSupport
import Testing
import TextAndFiles

@Suite("Atomic files")
struct AtomicFileTests {
    let directory = TemporaryDirectory("atomic")

    @Test func atomicWritesLeaveNoTempFiles() throws {
        let target = directory.file("file.json")
        try AtomicFile.write(Data("one".utf8), to: target)
        try AtomicFile.write(Data("two".utf8), to: target)
        #expect(try String(contentsOf: target, encoding: .utf8) == "two")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["file.json"])
    }

    /// A write's temporary file is abandoned once the process that writes it is gone (or it has
    /// no process in its name): then anyone may remove it. A live writer's is left alone.
    @Test func aTemporaryFileIsAbandonedOnlyWhenItsWriterIsGone() throws {
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let uuid = UUID().uuidString
        #expect(!AtomicFile.isAbandonedTemporary(".0000000001.gdlog.\(getpid()).\(uuid).tmp"), "this process writes it")
        #expect(AtomicFile.isAbandonedTemporary(".0000000001.gdlog.\(finished.processIdentifier).\(uuid).tmp"))
        #expect(
            !AtomicFile.isAbandonedTemporary(".settings.\(getpid()).\(uuid).tmp"),
            "a live writer's file for a target without an extension")
        #expect(AtomicFile.isAbandonedTemporary(".settings.\(finished.processIdentifier).\(uuid).tmp"))
        #expect(AtomicFile.isAbandonedTemporary(".0000000001.gdlog.tmp"), "a write cut short names no process")
        #expect(!AtomicFile.isAbandonedTemporary("0000000001.gdlog"), "not a temporary file")
        #expect(!AtomicFile.isAbandonedTemporary(".0000000001.gdlog"))
        #expect(!AtomicFile.isAbandonedTemporary("0000000001.gdlog.tmp"), "not hidden: not one of ours")
    }
}
