import Foundation
import TestSupport
import Testing
import TextAndFiles
import Ubiquity

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
}
