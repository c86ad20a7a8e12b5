import Foundation
import GRDB
import TestSupport
import Testing

@testable import Ubiquity

/// A digest after a change rehashes the buckets the change touched, and always equals the
/// digest computed whole (docs/decisions/0167).
@Suite("Digests: computed again from the changes, equal to the whole")
struct IncrementalDigestTests {
    let cloud = TemporaryDirectory("cloud")
    let clock = TestClock()

    func peer(_ name: String) throws -> TestPeer {
        try TestPeer(name: name, prefix: String(repeating: name, count: 8), cloud: cloud.url, clock: clock)
    }

    /// IDs spread over many buckets (the peers' generators give one prefix each).
    func spreadID(_ index: Int) -> GlobalID {
        GlobalID(
            String(format: "%02x", (index * 37) % 256) + "000000-0000-4000-8000-" + String(format: "%012x", index))!
    }

    /// The buckets the next digest would compute again, `nil` when it would read everything.
    func changedBuckets(_ store: ObjectStore) throws -> Set<String>? {
        try store.read { db in store.digestChanges.reusable(at: try Outbox.changeCounts(db))?.changed }
    }

    /// The digest from the changes, checked against the whole one.
    @discardableResult
    func expectAgreement(_ store: ObjectStore, _ comment: Comment) throws -> Digest {
        let (whole, agreed) = try store.read { db in try store.checkedDigest(applied: [:], db) }
        #expect(agreed, comment)
        return whole
    }

    func bucket(_ id: GlobalID) -> String { Digest.bucket(of: id.description) }

    @Test func savesRehashTheBucketsOfEveryRowTheyChanged() throws {
        let a = try peer("a")
        let (folders, notes) = try a.store.save(author: "t") { context in
            let folders = try (0..<4).map {
                try context.insert("Folder", id: spreadID(1000 + $0), values: ["name": .string("F\($0)")])
            }
            let notes = try (0..<40).map { index in
                let attachment = try context.insert(
                    "Attachment", id: spreadID(2000 + index), values: ["bytes": .data(Data([UInt8(index)]))])
                return try context.insert(
                    "Note", id: spreadID(index),
                    values: [
                        "title": .string("N\(index)"), "folder": .reference(folders[index % 4]),
                        "attachment": .reference(attachment),
                    ])
            }
            return (folders, notes)
        }
        #expect(try changedBuckets(a.store) == nil, "no digest yet: read whole")
        try expectAgreement(a.store, "first")
        #expect(try changedBuckets(a.store) == [], "nothing changed since")
        try expectAgreement(a.store, "unchanged")

        _ = try a.store.save(author: "t") { try $0.update("Note", id: notes[3], values: ["count": .integer(7)]) }
        #expect(try changedBuckets(a.store) == [bucket(notes[3])])
        try expectAgreement(a.store, "update")

        // A delete takes its attachment along (cascade) and leaves tombstones.
        let attachment = try a.store.read { db in
            try String.fetchOne(db, sql: "SELECT attachment FROM note WHERE id = ?", arguments: [notes[5]])
        }
        try a.store.save(author: "t") { try $0.delete("Note", id: notes[5]) }
        #expect(try changedBuckets(a.store) == [bucket(notes[5]), Digest.bucket(of: try #require(attachment))])
        try expectAgreement(a.store, "delete with cascade")

        // A folder's delete sets its notes' folder to null.
        try a.store.save(author: "t") { try $0.delete("Folder", id: folders[1]) }
        let unfiled = Set(notes.indices.filter { $0 % 4 == 1 && $0 != 5 }.map { bucket(notes[$0]) })
        #expect(try changedBuckets(a.store) == unfiled.union([bucket(folders[1])]))
        try expectAgreement(a.store, "delete with nullify")

        // A merge repoints the merged copy's notes without recording them: the rows still tell.
        try a.store.save(author: "t") { _ = try $0.merge("Folder", id: folders[2], with: folders[3]) }
        let repointed = Set(notes.indices.filter { $0 % 4 == 3 }.map { bucket(notes[$0]) })
        let changed = try #require(try changedBuckets(a.store))
        #expect(changed.isSuperset(of: repointed.union([bucket(folders[3])])))
        try expectAgreement(a.store, "merge")

        // Several saves between two digests.
        for index in 10..<15 {
            _ = try a.store.save(author: "t") {
                try $0.update("Note", id: notes[index], values: ["title": .string("M\(index)")])
            }
        }
        #expect(try changedBuckets(a.store) == Set((10..<15).map { bucket(notes[$0]) }))
        try expectAgreement(a.store, "several saves")
    }

    @Test func importsRehashWhatTheyChangedIncludingTombstonesOfObjectsNeverHeld() throws {
        let (a, b) = (try peer("a"), try peer("b"))
        let notes = try b.store.save(author: "t") { context in
            try (0..<20).map { try context.insert("Note", id: spreadID($0), values: ["title": .string("N\($0)")]) }
        }
        try b.sync.sync()
        _ = try a.sync.importPending()
        try expectAgreement(a.store, "first")

        // An object inserted and deleted before a sees it: a holds only its tombstone.
        let brief = try b.store.save(author: "t") {
            try $0.insert("Note", id: spreadID(100), values: ["title": .string("Brief")])
        }
        try b.store.save(author: "t") { try $0.delete("Note", id: brief) }
        _ = try b.store.save(author: "t") { try $0.update("Note", id: notes[2], values: ["count": .integer(3)]) }
        try b.store.save(author: "t") { try $0.delete("Note", id: notes[4]) }
        try b.sync.sync()
        _ = try a.sync.importPending()
        #expect(
            try changedBuckets(a.store) == [bucket(brief), bucket(notes[2]), bucket(notes[4])],
            "the import's buckets, the never-held object's tombstone's too")
        let digest = try expectAgreement(a.store, "import")
        #expect(digest == (try b.store.read { db in try Digest.compute(schema: b.store.schema, applied: [:], db) }))
    }

    @Test func anImportsNewRowsMarkTheirOwnBuckets() throws {
        let (a, b) = (try peer("a"), try peer("b"))
        _ = try b.store.save(author: "t") { try $0.insert("Note", id: spreadID(0), values: ["title": .string("N0")]) }
        try b.sync.sync()
        _ = try a.sync.importPending()
        try expectAgreement(a.store, "first")

        // New objects only: the import marks each row's bucket as it inserts it, the hook
        // passes over the row.
        let notes = try b.store.save(author: "t") { context in
            try (1..<40).map { try context.insert("Note", id: spreadID($0), values: ["title": .string("N\($0)")]) }
        }
        try b.sync.sync()
        _ = try a.sync.importPending()
        #expect(try changedBuckets(a.store) == Set(notes.map(bucket)))
        let digest = try expectAgreement(a.store, "an import of new objects")
        #expect(digest == (try b.store.read { db in try Digest.compute(schema: b.store.schema, applied: [:], db) }))
    }

    @Test func aRowAnnouncedButNeverInsertedHidesNoOtherRowFromTheHook() throws {
        struct Refused: Error {}
        let a = try peer("a")
        _ = try a.store.save(author: "t") { try $0.insert("Note", id: spreadID(0), values: ["title": .string("N0")]) }
        try expectAgreement(a.store, "first")
        try a.store.write { db in
            #expect(throws: Refused.self) {
                try a.store.digestChanges.inserting(into: "note", id: spreadID(40).description) { throw Refused() }
            }
            // Inserted after the announced row failed: the hook must see it.
            let note = try #require(a.store.schema.entity(named: "Note"))
            try RowWriter.insert(note, id: spreadID(41), values: ["title": .string("Unannounced")], db)
            try Outbox.countImport(db)
        }
        #expect(
            try changedBuckets(a.store) == [bucket(spreadID(40)), bucket(spreadID(41))],
            "the announced row's bucket is computed again, for nothing; the other row's is seen")
        try expectAgreement(a.store, "after an announced row that failed")
    }

    @Test func whatThisProcessDidNotSeeIsReadWhole() throws {
        let a = try peer("a")
        let note = try a.store.save(author: "t") {
            try $0.insert("Note", id: spreadID(1), values: ["title": .string("Milk")])
        }
        try expectAgreement(a.store, "first")

        // Another process (its own store object on the same file) saves.
        let other = try ObjectStore(
            path: a.directory.file("store.sqlite").path, model: TestModel.definition, version: 2, peer: a.store.peer,
            clock: clock)
        _ = try other.save(author: "t") { try $0.update("Note", id: note, values: ["count": .integer(2)]) }
        #expect(try changedBuckets(a.store) == nil)
        try expectAgreement(a.store, "after another process's save")
        #expect(try changedBuckets(a.store) == [])
        try other.close()

        // A change to the data that moves no count (damage behind the engine's back).
        try a.store.write { db in try db.execute(sql: "UPDATE note SET title = 'X' WHERE id = ?", arguments: [note]) }
        #expect(try changedBuckets(a.store) == nil)
        try expectAgreement(a.store, "after an uncounted change")

        // A write that changes nothing of the data keeps the chain.
        try a.store.setMetadata("k", "v")
        _ = try a.store.save(author: "t") { try $0.update("Note", id: note, values: ["count": .integer(4)]) }
        #expect(try changedBuckets(a.store) == [bucket(note)])
        try expectAgreement(a.store, "after a metadata write and a save")
    }

    /// The definition is the previous version's: devices that run it compare digests with this
    /// one. The top hash of a fixed store, as the previous version computed it.
    @Test func theDigestIsThePreviousVersions() throws {
        let a = try peer("a")
        let folder = try a.store.save(author: "t") { try $0.insert("Folder", values: ["name": .string("Home")]) }
        try a.store.save(author: "t") { context in
            let attachment = try context.insert("Attachment", values: ["bytes": .data(Data([1, 2, 3]))])
            _ = try context.insert(
                "Note",
                values: [
                    "title": .string("Milk é"), "count": .integer(12), "pinned": .bool(true),
                    "modified": .date(Date(timeIntervalSince1970: 1_700_000_000.25)), "folder": .reference(folder),
                    "attachment": .reference(attachment),
                ])
            let gone = try context.insert("Note", values: ["title": .string("Gone")])
            try context.delete("Note", id: gone)
        }
        for count in [0, 1, 9, 10, 99, 100, 12_345, Int.max] {
            var bytes: [UInt8] = []
            Canonical.appendDecimal(count, to: &bytes)
            #expect(bytes == Array(String(count).utf8))
        }
        // Typed fields as the previous version wrote them ("d" + the bit pattern in hex, …).
        let id = try #require(GlobalID("0123abcd-0000-4000-8000-000000000001"))
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let expected: [(PropertyValue, String)] = [
            (.double(0), "d0"), (.double(1.5), "d" + String((1.5).bitPattern, radix: 16)),
            (.double(-2.25), "d" + String((-2.25).bitPattern, radix: 16)),
            (.date(date), "t" + String(date.timeIntervalSince1970.bitPattern, radix: 16)),
            (.integer(-42), "i-42"), (.reference(id), "r" + id.description), (.blob("ab12"), "hab12"),
        ]
        for (value, text) in expected {
            var bytes: [UInt8] = []
            Canonical.append(value, to: &bytes)
            var old: [UInt8] = []
            Canonical.appendField(text, to: &old)
            #expect(bytes == old, "\(value)")
        }
        let digest = try a.store.read { db in try a.store.digest(applied: [:], db) }
        #expect(digest.top == "49a09ed387b6dfb20888264717a09040e21535737cf943a0a2905a29d604cbc6")
    }

    @Test func aBucketReadAloneHasTheBytesOfTheWholeRead() throws {
        let a = try peer("a")
        try a.store.save(author: "t") { context in
            for index in 0..<300 {
                _ = try context.insert("Note", id: spreadID(index), values: ["title": .string("N\(index)")])
            }
        }
        try a.store.save(author: "t") { context in
            for index in stride(from: 0, to: 300, by: 7) { try context.delete("Note", id: spreadID(index)) }
        }
        try a.store.read { db in
            let whole = try Digest.compute(schema: a.store.schema, applied: [:], db)
            let chosen: Set<String> = ["00", "25", "4a", "ff", "9c"]
            let alone = try #require(try Digest.bucketContents(schema: a.store.schema, only: chosen, db))
            #expect(Set(alone.keys) == chosen.intersection(whole.buckets.keys))
            for name in chosen { #expect(alone[name] == whole.contents[name], "\(name)") }
        }
        #expect(Digest.idRanges(ofBucket: "a1")?.map(\.low) == ["A1", "a1"])
        #expect(Digest.idRanges(ofBucket: "a1")?.map(\.high) == ["A2", "a2"])
        #expect(Digest.idRanges(ofBucket: "ab")?.map(\.low) == ["AB", "Ab", "aB", "ab"])
        #expect(Digest.idRanges(ofBucket: "g1") == nil)
        #expect(Digest.idRanges(ofBucket: "abc") == nil)
    }
}
