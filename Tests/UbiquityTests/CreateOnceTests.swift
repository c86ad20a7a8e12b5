import Foundation
import Testing
import TestSupport
import TextAndFiles
@testable import Ubiquity

/// Files that must be made once even when many threads or processes try at the same moment.
@Suite("Creating a file once")
struct CreateOnceTests {
    let directory = TemporaryDirectory("create-once")

    @Test func ofManyCreatorsAtOnceExactlyOneMakesTheFileAndItIsWhole() throws {
        let target = directory.file("device.json")
        final class Winners: @unchecked Sendable {
            let lock = NSLock()
            var indexes: [Int] = []
        }
        let winners = Winners()
        @Sendable func contents(_ index: Int) -> Data { Data("creator \(index)\n".utf8) + Data(repeating: UInt8(ascii: "x"), count: 64 * 1024) }
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            if (try? AtomicFile.create(contents(index), at: target)) == true {
                winners.lock.withLock { winners.indexes.append(index) }
            }
        }
        #expect(winners.indexes.count == 1)
        let written = try Data(contentsOf: target)
        #expect(written == contents(try #require(winners.indexes.first)), "the winner's file, whole")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["device.json"], "no temp file left")
        #expect(try AtomicFile.create(Data("later".utf8), at: target) == false)
        #expect(try Data(contentsOf: target) == written, "a later creator never replaces it")
    }
}
