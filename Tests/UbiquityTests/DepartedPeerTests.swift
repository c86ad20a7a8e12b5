import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// Folders of departed peers are not listed again while they stay the same; a folder that
/// changes in any way (a log arriving, a sync engine's rename, a chmod, a file in its place) is.
@Suite("Departed peers' folders")
struct DepartedPeerTests {
    let cloud = TemporaryDirectory("cloud")
    let clock = TestClock()

    /// Log `seq` of `peer`, a note titled `title`, written by hand as a peer that left would have.
    func writeLog(_ seq: Int64, peer: String, title: String, into layout: CloudLayout) throws {
        try layout.makeFolder(layout.peerFolder(peer))
        try logData(seq, peer: peer, title: title, layout: layout).write(to: layout.logURL(peer: peer, seq: seq))
    }

    func logData(_ seq: Int64, peer: String, title: String, layout: CloudLayout) throws -> Data {
        let record = TransactionRecord(
            transactionID: GlobalID(UUID()), timestamp: Date(timeIntervalSince1970: 1_800_000_000), author: "departed",
            inserted: [
                ObjectChange(object: ObjectID(entity: "Note", id: GlobalID(UUID())), values: ["title": .string(title)])
            ],
            updated: [], deleted: [], clock: HLC(wall: 1_800_000_000_000 + seq, counter: 0, peer: peer))
        return try LogFile.encode(record, layout: layout, peer: peer, device: "gone-\(peer)", seq: seq)
    }

    func departedPeers(_ count: Int, logs: Int64 = 2, into layout: CloudLayout) throws -> [String] {
        let peers = (0..<count).map { "peer-gone\(String($0).leftPadded(to: 3))" }
        for peer in peers {
            for seq in 1...logs { try writeLog(seq, peer: peer, title: "\(peer) \(seq)", into: layout) }
        }
        return peers
    }

    func titles(_ peer: TestPeer) throws -> Set<String> {
        try peer.store.read { db in Set(try String.fetchAll(db, sql: "SELECT title FROM note")) }
    }

    /// The importing peer, its listings made `later` seconds after the folders last changed
    /// (a folder changed less than two seconds before a listing is not trusted).
    func importer(later: Double = 10) throws -> TestPeer {
        let b = try TestPeer(name: "b", prefix: "bbbbbbbb", cloud: cloud.url, clock: clock)
        b.sync.folderClock = { Date().timeIntervalSince1970 + later }
        return b
    }

    @Test func aPeerNameIsOneTo64LettersDigitsDashesOrUnderscores() {
        // Every byte accepted, in a name of the longest length.
        let everyByte = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_"
        for name in ["a", "Z", "0", "-", "_", "6f1c2d3e-0a1b-4c5d-8e9f-a0b1c2d3e4f5", everyByte] {
            #expect(HLC.isPeerName(name), "\(name)")
        }
        // The bytes beside each accepted range, and what a hostile folder name may hold.
        let refused = [
            "", everyByte + "a", "/", ":", "@", "[", "`", "{", ".", "..", "a.b", "a b", "é", "e\u{301}", "\u{212A}",
            "a\0", "peer\n", "0123456789abcdef0123456789abcdef-é", "~peer",
        ]
        for name in refused { #expect(!HLC.isPeerName(name), "\(name.debugDescription)") }
        // A substring's copy and a string built up byte by byte are read alike.
        let built = String(decoding: Array("peer-b".utf8), as: UTF8.self)
        #expect(HLC.isPeerName(built) && HLC.isPeerName(String("xpeer-b".dropFirst())))
    }

    /// The digest's definition is kept (digests recorded by earlier builds stay valid): FNV-1a
    /// of the name's UTF-8, then splitmix64's finalizer over the stamp's device, inode and
    /// times; the bucket keeps the sum and the exclusive or of its folders' hashes.
    @Test func aFolderDigestKeepsItsDefinition() {
        var digest = FolderDigest(user: 0, device: 2049)
        digest.add(
            "6f1c2d3e-0a1b-4c5d-8e9f-a0b1c2d3e4f5".utf8,
            FolderStamp(
                device: 2049, inode: 1_234_567, modified: 1_800_000_000_123_456_789, changed: 1_800_000_001_000_000_000)
        )
        digest.add("peer-a".utf8, FolderStamp(device: 2049, inode: 42, modified: -5, changed: 7))
        #expect(digest.count == 2)
        #expect(digest.sum == 9_558_548_307_874_829_009)
        #expect(digest.xor == 9_247_201_652_559_424_777)
    }

    @Test func theTrustWindowKnobTakesANonNegativeNumberOfSecondsAndIgnoresAnythingElse() {
        #expect(FolderScans.trustWindow(fromEnvironmentValue: nil) == 2)
        #expect(FolderScans.trustWindow(fromEnvironmentValue: "0") == 0)
        #expect(FolderScans.trustWindow(fromEnvironmentValue: "0.25") == 0.25)
        for invalid in ["", "-1", "soon", "nan", "inf"] {
            #expect(FolderScans.trustWindow(fromEnvironmentValue: invalid) == 2, "\(invalid)")
        }
    }

    @Test func aLogArrivingInAnUnchangedFolderIsStillImported() throws {
        let b = try importer()
        let layout = b.sync.layout
        let peers = try departedPeers(40, into: layout)
        #expect(try b.sync.importPending().appliedLogs == 80)
        #expect(b.sync.listingsAtLastImport == (40, 40))
        // Nothing changed: no folder is listed, nothing is reported waiting.
        let quiet = try b.sync.importPending()
        #expect(quiet.appliedLogs == 0 && quiet.waiting.isEmpty && quiet.refused.isEmpty)
        #expect(b.sync.listingsAtLastImport == (0, 40))
        #expect(try b.sync.pendingImports() == 0)

        // A peer comes back with a log: its folder changed, and only it is listed.
        try writeLog(3, peer: peers[7], title: "back again", into: layout)
        #expect(try b.sync.pendingImports() == 1)
        #expect(try b.sync.importPending().appliedLogs == 1)
        #expect(b.sync.listingsAtLastImport == (1, 40))
        #expect(try titles(b).contains("back again"))

        // A sync engine writes a temporary file, then renames it into place; an import in
        // between sees no log, and the rename is still noticed.
        let folder = layout.peerFolder(peers[31])
        let temporary = folder.appendingPathComponent(".syncthing.0000000003.gdlog.tmp")
        try logData(3, peer: peers[31], title: "renamed into place", layout: layout).write(to: temporary)
        #expect(try b.sync.importPending().appliedLogs == 0)
        try FileManager.default.moveItem(at: temporary, to: layout.logURL(peer: peers[31], seq: 3))
        #expect(try b.sync.importPending().appliedLogs == 1)
        #expect(try titles(b).contains("renamed into place"))
        #expect(try b.sync.importPending().appliedLogs == 0)
        #expect(b.sync.listingsAtLastImport == (0, 40))
    }

    @Test func aChangedFolderHasOnlyItsBucketsListingsRead() throws {
        let b = try importer()
        let layout = b.sync.layout
        let peers = (0..<60).map { _ in UUID().uuidString.lowercased() }
        for peer in peers { try writeLog(1, peer: peer, title: peer, into: layout) }
        _ = try b.sync.importPending()
        let quiet = try b.sync.survey()
        #expect(
            quiet.logs.isAsRecorded && quiet.logs.bucketsToRead.isEmpty, "nothing read: every digest is as recorded")
        try writeLog(2, peer: peers[11], title: "more", into: layout)
        let survey = try b.sync.survey()
        #expect(survey.logs.bucketsToRead == [PeerFolders.bucket(of: peers[11])])
        #expect(survey.logs.changed == [peers[11]])
        #expect(try b.sync.importPending().appliedLogs == 1)
        #expect(try b.sync.survey().logs.isAsRecorded)
    }

    @Test func aPeerHeldByAMissingLogIsListedUntilItArrives() throws {
        let b = try importer()
        let layout = b.sync.layout
        try writeLog(1, peer: "peer-x", title: "one", into: layout)
        try writeLog(3, peer: "peer-x", title: "three", into: layout)
        #expect(try b.sync.importPending().waiting == ["waiting for log 2 from peer peer-x"])
        // Unchanged, but not done with: still reported at every import.
        #expect(try b.sync.importPending().waiting == ["waiting for log 2 from peer peer-x"])
        #expect(b.sync.listingsAtLastImport == (1, 1))
        // What its listing found stays remembered across those imports (not forgotten and
        // written again every other one): the folder is known unchanged, only behind.
        for _ in 1...2 {
            let survey = try b.sync.survey()
            #expect(survey.logs.behind == ["peer-x"] && survey.logs.changed.isEmpty)
            _ = try b.sync.importPending()
        }
        try writeLog(2, peer: "peer-x", title: "two", into: layout)
        #expect(try b.sync.importPending().appliedLogs == 2)
        #expect(try titles(b) == ["one", "two", "three"])
    }

    /// Listings are remembered by name, and Swift compares names canonically: a baselines
    /// folder named "e" + U+0301 must not stand for another named "é".
    @Test func aFolderNamedOutsideASCIIIsNeverRemembered() throws {
        let b = try importer()
        let baselines = b.sync.layout.epochFolder.appendingPathComponent("baselines", isDirectory: true)
        for name in ["\u{E9}", "e\u{301}", "\u{212A}", "K"] {
            try FileManager.default.createDirectory(
                at: baselines.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        _ = try b.sync.importPending()
        _ = try b.sync.importPending()
        let changed = try b.sync.survey().baselines.changed
        #expect(changed.filter { !$0.utf8.allSatisfy { $0 < 0x80 } }.count == 3, "always listed: \(changed)")
    }

    @Test func aFolderThatCannotBeListedAnyMoreIsReported() throws {
        let b = try importer()
        let layout = b.sync.layout
        let peers = try departedPeers(3, into: layout)
        _ = try b.sync.importPending()
        #expect(try b.sync.importPending().refused.isEmpty)
        #expect(b.sync.listingsAtLastImport == (0, 3))

        // chmod 000 moves the folder's change time: it is checked again. (Tests run as root,
        // whom permissions do not stop; as another user the folder is reported too.)
        let folder = layout.peerFolder(peers[1])
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        let survey = try b.sync.survey()
        #expect(survey.logs.changed == [peers[1]], "a chmod is a change")
        let afterChmod = try b.sync.importPending()
        if geteuid() != 0 {
            #expect(afterChmod.refused.map(\.kind) == [.folder])
            #expect(afterChmod.rejected.first?.contains("cannot be listed (Permission denied)") == true)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)

        // A file where the remembered folder was cannot be listed, whoever looks.
        try FileManager.default.removeItem(at: folder)
        try Data("x".utf8).write(to: folder)
        let report = try b.sync.importPending()
        #expect(report.refused.map(\.kind) == [.folder])
        #expect(
            report.rejected.first?.contains("\(peers[1]): cannot be listed (Not a directory)") == true,
            "\(report.rejected)")
        #expect(try b.sync.refusedFiles().map(\.kind) == [.folder])
        #expect(try b.sync.importPending().refused.map(\.kind) == [.folder], "reported at every import")
    }

    @Test func aListingMadeWithinTheRacyWindowIsNotTrusted() throws {
        let b = try importer()
        let layout = b.sync.layout
        try writeLog(1, peer: "peer-x", title: "one", into: layout)
        _ = try b.sync.importPending()
        // Log 2 arrives in the same clock tick as the change a listing saw: the folder's stamp
        // is what that listing remembered, with log 1 as the newest.
        try writeLog(2, peer: "peer-x", title: "two", into: layout)
        let stamp = try #require(FolderStamp.of(layout.peerFolder("peer-x").path))
        func remember(scannedAt: Double) throws {
            try b.store.write { db in
                try FolderScans.save(
                    [(.logs, "peer-x", FolderScan(stamp: stamp, user: geteuid(), newest: 1, scannedAt: scannedAt))],
                    folder: layout.watermarkFolder, db)
            }
        }
        // A listing made as the folder changed (or a second after) is not trusted: log 2 is read.
        try remember(scannedAt: Double(stamp.modified) / 1e9 + 1)
        #expect(try b.sync.importPending().appliedLogs == 1)
        #expect(try titles(b) == ["one", "two"])

        // Whereas a listing made well after the change is: the folder is not listed. (Which is
        // why the listing must have been made after the change's tick: here it claims to be,
        // and log 3, slipped in under the same stamp, waits for the folder's next change.)
        try writeLog(3, peer: "peer-x", title: "three", into: layout)
        let later = try #require(FolderStamp.of(layout.peerFolder("peer-x").path))
        try b.store.write { db in
            try FolderScans.save(
                [
                    (
                        .logs, "peer-x",
                        FolderScan(
                            stamp: later, user: geteuid(), newest: 2,
                            scannedAt: Double(later.modified) / 1e9 + 3)
                    )
                ],
                folder: layout.watermarkFolder, db)
        }
        #expect(try b.sync.importPending().appliedLogs == 0)
        #expect(b.sync.listingsAtLastImport == (0, 1))
        // Nothing is trusted for ever: a day on, the folder is listed again.
        b.sync.folderClock = { Date().timeIntervalSince1970 + 2 * 24 * 3600 }
        #expect(try b.sync.importPending().appliedLogs == 1)
        #expect(try titles(b) == ["one", "two", "three"])
    }

    @Test func listingsPastTheirDayAreRenewedAFewAtATime() throws {
        let b = try importer()
        _ = try departedPeers(100, logs: 1, into: b.sync.layout)
        _ = try b.sync.importPending()
        b.sync.folderClock = { Date().timeIntervalSince1970 + 2 * 24 * 3600 }
        _ = try b.sync.importPending()
        #expect(b.sync.listingsAtLastImport == (FolderScans.relistsPerImport, 100))
        _ = try b.sync.importPending()
        #expect(b.sync.listingsAtLastImport == (100 - FolderScans.relistsPerImport, 100))
        _ = try b.sync.importPending()
        #expect(b.sync.listingsAtLastImport == (0, 100))
    }

    @Test func departedPeersBaselinesAreNotReadAgain() throws {
        let b = try importer()
        let c = try TestPeer(name: "c", prefix: "cccccccc", cloud: cloud.url, clock: clock)
        c.sync.folderClock = b.sync.folderClock
        _ = try c.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("from c")]) }
        _ = try #require(try c.sync.writeBaseline())
        let first = try b.sync.importPending()
        #expect(first.loadedBaselines == 1)
        #expect(b.sync.listingsAtLastImport.of == 2)  // logs/peer-c, baselines/peer-c
        _ = try b.sync.importPending()
        #expect(b.sync.listingsAtLastImport == (0, 2))
        // c comes back: a new save and a new baseline are both found.
        _ = try c.store.save(author: "add") { try $0.insert("Note", values: ["title": .string("c again")]) }
        _ = try #require(try c.sync.writeBaseline())
        let again = try b.sync.importPending()
        #expect(again.loadedBaselines == 1)
        #expect(try titles(b) == ["from c", "c again"])
        #expect(b.sync.listingsAtLastImport == (2, 2))
    }

    @Test func aFolderOnAnUntrustedFileSystemIsAlwaysListed() throws {
        let b = try importer()
        _ = try departedPeers(2, logs: 1, into: b.sync.layout)
        _ = try b.sync.importPending()
        let survey = try b.sync.survey()
        // What the rest of these tests rely on: their temp folder's stamps are trusted.
        #expect(FolderScans.trustedDevice(b.sync.layout.epochFolder.path) != nil)
        #expect(survey.logs.isAsRecorded && survey.logs.changed.isEmpty)
        // A folder remembered by another user is listed again (who may list it may differ).
        let layout = b.sync.layout
        let remembered = try b.store.read { db in try FolderScans.all(folder: layout.watermarkFolder, kind: .logs, db) }
        let recorded = try b.store.read { db in try FolderDigest.all(folder: layout.watermarkFolder, db) }[.logs] ?? [:]
        #expect(remembered.count == 2)
        var other = PeerFolders(
            .logs, folder: layout.logsFolder, isPeer: { HLC.isPeerName(bytes: $0) }, recorded: recorded,
            scanStart: b.sync.folderClock(), device: FolderScans.trustedDevice(layout.epochFolder.path),
            user: geteuid() + 1)
        #expect(!other.isAsRecorded)
        other.compare(with: remembered)
        #expect(other.changed.count == 2)
        // No trusted file system: nothing is skipped.
        var untrusted = PeerFolders(
            .logs, folder: layout.logsFolder, isPeer: { HLC.isPeerName(bytes: $0) }, recorded: recorded,
            scanStart: b.sync.folderClock(), device: nil)
        #expect(!untrusted.isAsRecorded)
        untrusted.compare(with: remembered)
        #expect(untrusted.changed.count == 2)
    }
}
