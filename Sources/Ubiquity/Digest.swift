import Foundation
import GRDB

/// A canonical hash of a store's synced data, so that two peers that applied the same logs can
/// prove they hold the same data (or find where they do not).
///
/// Every live object (entities in schema order, objects by ID) contributes the hash of its
/// canonical bytes: entity, ID, and for each property (sorted by name) a typed canonical form of
/// its value and the clock reading of its last write. Every tombstone contributes its entity
/// and ID. Objects fall into 256 buckets by the first two hex digits of their ID; each bucket
/// hashes its objects' hashes in order, and the top hash hashes the non-empty buckets: a
/// mismatch narrows to buckets, and a bucket's object hashes name the objects.
///
/// A tombstone's clock reading is left out on purpose: two peers that delete the same object
/// concurrently each keep the reading they saw first, and that reading changes nothing after.
public struct Digest: Equatable, Sendable {
    /// One object's (or tombstone's) hash, as listed in detail files.
    public struct ObjectHash: Codable, Equatable, Hashable, Sendable {
        public var entity: String
        public var id: String
        /// SHA-256 of its canonical bytes, hex; tombstones have `deleted: true`.
        public var hash: String
        public var deleted: Bool?
    }

    /// Per peer, the last log applied (this peer's own: the last one it exported). Peers with
    /// nothing applied are left out, so that "0" and "absent" compare equal.
    public var applied: [String: Int64]
    /// Bucket ("00" … "ff") → hash, non-empty buckets only.
    public var buckets: [String: String]
    /// The hash of the buckets.
    public var top: String
    /// Bucket → its objects' hashes, in order: what detail files list. Not part of the digest file.
    public var objects: [String: [ObjectHash]]

    /// Reads the whole store in the caller's (read) transaction.
    static func compute(schema: Schema, applied: [String: Int64], _ db: Database) throws -> Digest {
        var objects: [String: [ObjectHash]] = [:]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(512)
        for entity in schema.entities {
            let names = entity.propertyNames.sorted()
            let types = names.map { entity.type(of: $0)! }
            let columns = names.map { "t." + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
            let sql = "SELECT t.id, \(columns), c.clocks FROM \(entity.table.quotedDatabaseIdentifier) t "
                + "LEFT JOIN \(EngineTables.objectClock) c ON c.objectID = t.id ORDER BY t.id"
            let rows = try Row.fetchCursor(db, sql: sql)
            while let row = try rows.next() {
                let id: String = row[0]
                let clocks = (row[names.count + 1] as String?).map(PropertyClocks.decode) ?? [:]
                bytes.removeAll(keepingCapacity: true)
                Canonical.append("O", entity.name, id, to: &bytes)
                for (index, name) in names.enumerated() {
                    let value = PropertyValue(databaseValue: row[index + 1] as DatabaseValue, type: types[index])
                    Canonical.appendField(name, to: &bytes)
                    Canonical.append(value, to: &bytes)
                    Canonical.appendField(clocks[name]?.description ?? "-", to: &bytes)
                }
                objects[bucket(of: id), default: []].append(
                    ObjectHash(entity: entity.name, id: id, hash: SHA256.hex(bytes), deleted: nil))
            }
        }
        let tombstones = try Row.fetchCursor(db, sql: "SELECT objectID, entity FROM \(EngineTables.tombstone) ORDER BY objectID")
        while let row = try tombstones.next() {
            let id: String = row[0]
            let entity: String = row[1]
            bytes.removeAll(keepingCapacity: true)
            Canonical.append("D", entity, id, to: &bytes)
            objects[bucket(of: id), default: []].append(ObjectHash(entity: entity, id: id, hash: SHA256.hex(bytes), deleted: true))
        }
        let buckets = objects.mapValues(bucketHash)
        return Digest(applied: applied.filter { $0.value > 0 }, buckets: buckets, top: topHash(buckets), objects: objects)
    }

    /// The bucket of an object: the first two hex digits of its ID.
    static func bucket(of id: String) -> String { String(id.prefix(2)).lowercased() }

    /// A bucket's hash: of its objects' hashes, in order.
    static func bucketHash(_ objects: [ObjectHash]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(objects.count * 65)
        for object in objects {
            bytes.append(contentsOf: object.hash.utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
        return SHA256.hex(bytes)
    }

    /// The top hash: of every non-empty bucket's name and hash, in bucket order.
    static func topHash(_ buckets: [String: String]) -> String {
        var bytes: [UInt8] = []
        for (name, hash) in buckets.sorted(by: { $0.key < $1.key }) {
            bytes.append(contentsOf: "\(name)=\(hash)\n".utf8)
        }
        return SHA256.hex(bytes)
    }

    /// The buckets whose hashes differ (or that only one side has), sorted.
    static func differingBuckets(_ mine: [String: String], _ theirs: [String: String]) -> [String] {
        Set(mine.keys).union(theirs.keys).filter { mine[$0] != theirs[$0] }.sorted()
    }
}

/// The canonical bytes of values: every field is length-prefixed (`<count>:<bytes>`), so no
/// two different inputs give the same bytes.
enum Canonical {
    static func appendField(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: String(text.utf8.count).utf8)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(contentsOf: text.utf8)
    }

    static func append(_ kind: String, _ entity: String, _ id: String, to bytes: inout [UInt8]) {
        appendField(kind, to: &bytes)
        appendField(entity, to: &bytes)
        appendField(id, to: &bytes)
    }

    /// A typed form: a tag, then the value. Doubles and dates by their bit pattern, data by the
    /// SHA-256 of its bytes.
    static func append(_ value: PropertyValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: appendField("n", to: &bytes)
        case .bool(let value): appendField(value ? "b1" : "b0", to: &bytes)
        case .integer(let value): appendField("i" + String(value), to: &bytes)
        case .double(let value): appendField("d" + String(value.bitPattern, radix: 16), to: &bytes)
        case .string(let value): appendField("s", to: &bytes); appendField(value, to: &bytes)
        case .date(let value): appendField("t" + String(value.timeIntervalSince1970.bitPattern, radix: 16), to: &bytes)
        case .data(let value): appendField("x" + SHA256.hex(value), to: &bytes)
        case .reference(let value): appendField("r" + value.description, to: &bytes)
        case .blob(let hash): appendField("h" + hash, to: &bytes)
        }
    }
}
