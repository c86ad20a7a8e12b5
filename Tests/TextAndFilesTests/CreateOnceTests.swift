import Foundation
import TestSupport
import Testing

@testable import TextAndFiles

/// Files that must be made once even when many threads or processes try at the same moment.
@Suite("Creating a file once")
struct CreateOnceTests {
    let directory = TemporaryDirectory("create-once")

    /// The two ways a file is made: with no name until it is whole (where the file system can),
    /// and through a hidden temporary file (everywhere else).
    enum Method: String, CaseIterable, CustomTestStringConvertible {
        case unnamed, throughTemporary, eitherAsAvailable
        var testDescription: String { rawValue }

        func create(_ data: Data, at url: URL) throws -> Bool {
            switch self {
            case .unnamed:
                // nil: the file system makes no unnamed files, which this method needs.
                try #require(
                    AtomicFile.createUnnamed(data, at: url) as Bool?, "this folder's file system makes unnamed files")
            case .throughTemporary: try AtomicFile.createThroughTemporary(data, at: url)
            case .eitherAsAvailable: try AtomicFile.create(data, at: url)
            }
        }
    }

    @Test(arguments: Method.allCases)
    func ofManyCreatorsAtOnceExactlyOneMakesTheFileAndItIsWhole(_ method: Method) throws {
        let target = directory.file("device.json")
        final class Winners: @unchecked Sendable {
            let lock = NSLock()
            var indexes: [Int] = []
        }
        let winners = Winners()
        @Sendable func contents(_ index: Int) -> Data {
            Data("creator \(index)\n".utf8) + Data(repeating: UInt8(ascii: "x"), count: 64 * 1024)
        }
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            if (try? method.create(contents(index), at: target)) == true {
                winners.lock.withLock { winners.indexes.append(index) }
            }
        }
        #expect(winners.indexes.count == 1)
        let written = try Data(contentsOf: target)
        #expect(written == contents(try #require(winners.indexes.first)), "the winner's file, whole")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["device.json"], "no temp file left")
        #expect(try method.create(Data("later".utf8), at: target) == false)
        #expect(try Data(contentsOf: target) == written, "a later creator never replaces it")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["device.json"],
            "nothing left by the later one")
    }

    @Test func anUnnamedFileIsMadeReadableAndWholeAndAMissingFolderIsNamed() throws {
        let target = directory.file("0000000001.gdlog")
        #expect(try AtomicFile.createUnnamed(Data("a log".utf8), at: target) == true)
        #expect(try Data(contentsOf: target) == Data("a log".utf8))
        let attributes = try FileManager.default.attributesOfItem(atPath: target.path)
        #expect(
            (attributes[.posixPermissions] as? Int).map { $0 & 0o444 } == 0o444,
            "readable by the file-sync engine and other users, as before")
        #expect(
            try AtomicFile.create(Data("empty".utf8).prefix(0), at: directory.file("empty")) == true,
            "an empty file too")
        #expect(try Data(contentsOf: directory.file("empty")).isEmpty)
        let elsewhere = directory.file("gone/0000000001.gdlog")
        #expect {
            _ = try AtomicFile.create(Data("x".utf8), at: elsewhere)
        } throws: { error in
            ErrorText.reason(error).contains(elsewhere.path)
        }
        #expect(!FileManager.default.fileExists(atPath: elsewhere.deletingLastPathComponent().path), "no folder made")
    }

    @Test func withoutProcTheFileIsMadeTheOtherWayAndNothingIsLeft() throws {
        let target = directory.file("0000000002.gdlog")
        #expect(try AtomicFile.createUnnamed(Data("a log".utf8), at: target, descriptors: "/no-proc/self/fd") == nil)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty,
            "nothing published, nothing left")
        #expect(try AtomicFile.createThroughTemporary(Data("a log".utf8), at: target) == true)
        #expect(try Data(contentsOf: target) == Data("a log".utf8))
    }
}
