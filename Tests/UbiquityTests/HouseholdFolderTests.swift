import Foundation
import TestSupport
import Testing

@testable import Ubiquity

/// The household folders' files: numbered per peer, created once, read as any file from the
/// cloud folder, deleted only in the writer's own folder.
@Suite("Household folders")
struct HouseholdFolderTests {
    let cloud = TemporaryDirectory("household-folder")

    func folder() throws -> HouseholdFolder {
        try FileManager.default.createDirectory(at: cloud.file("home"), withIntermediateDirectories: true)
        return try HouseholdFolder(cloud: cloud.url, account: "home", storeName: "Groceries", kind: .claims)
    }

    @Test func filesAreNumberedPerPeerAndReadBackWhole() throws {
        let claims = try folder()
        #expect(claims.folder.lastPathComponent == "Groceries.claims")
        #expect(
            try claims.write(Data("{\"a\":1}".utf8), peer: "peer-a")
                == "home/Groceries.claims/peer-a/0000000001.gdclaim")
        #expect(
            try claims.write(Data("{\"a\":2}".utf8), peer: "peer-a")
                == "home/Groceries.claims/peer-a/0000000002.gdclaim")
        try claims.write(Data("{\"b\":1}".utf8), peer: "peer-b")
        let files = claims.files()
        #expect(
            files.map(\.path) == [
                "home/Groceries.claims/peer-a/0000000001.gdclaim", "home/Groceries.claims/peer-a/0000000002.gdclaim",
                "home/Groceries.claims/peer-b/0000000001.gdclaim",
            ])
        #expect(files.map { try? $0.body.get() } == ["{\"a\":1}", "{\"a\":2}", "{\"b\":1}"].map { Data($0.utf8) })
        // The same body under another kind's magic is not one.
        let presence = try HouseholdFolder(cloud: cloud.url, account: "home", storeName: "Groceries", kind: .presence)
        try FileManager.default.createDirectory(
            at: presence.folder.appendingPathComponent("peer-a"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: claims.folder.appendingPathComponent("peer-a/0000000001.gdclaim"),
            to: presence.folder.appendingPathComponent("peer-a/0000000001.gdpresence"))
        #expect(throws: RuleViolation.self) { try presence.files()[0].body.get() }

        // A peer removes only its own files.
        claims.removeOwn(peer: "peer-a") { $0.number == 1 }
        #expect(
            claims.files().map(\.path) == [
                "home/Groceries.claims/peer-a/0000000002.gdclaim", "home/Groceries.claims/peer-b/0000000001.gdclaim",
            ])
    }

    @Test func whatIsNotARegularFileOrNotAPeerIsNeverRead() throws {
        let claims = try folder()
        let peerFolder = claims.folder.appendingPathComponent("peer-a")
        try FileManager.default.createDirectory(at: peerFolder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: peerFolder.appendingPathComponent("0000000001.gdclaim").path, withDestinationPath: "/etc/passwd")
        #expect(mkfifo(peerFolder.appendingPathComponent("0000000002.gdclaim").path, 0o644) == 0)
        // Sync engines' names and folders that are not peers are not files of the folder.
        try Data().write(to: peerFolder.appendingPathComponent(".0000000003.gdclaim.tmp"))
        try FileManager.default.createDirectory(
            at: claims.folder.appendingPathComponent(".stfolder"), withIntermediateDirectories: true)
        let files = claims.files()
        #expect(files.map(\.number) == [1, 2])
        #expect(files.map { (try? $0.body.get()) == nil } == [true, true])
        #expect(files.map(\.size) == [-1, -1])
    }
}
