import Foundation
import GRDB

/// A canonical hash of a store's synced data, so that two peers that applied the same logs can
/// prove they hold the same data (or find where they do not).
///
/// Every live object (entities in schema order, objects by ID) contributes its canonical bytes:
/// entity, ID, and for each property (sorted by name) a typed canonical form of its value and
/// the clock reading of its last write. Every tombstone contributes its entity and ID. Objects
/// fall into 256 buckets by the first two hex digits of their ID; each bucket is the SHA-256 of
/// its objects' bytes in order, and the top hash hashes the non-empty buckets: a mismatch
/// narrows to buckets, and the hashes of a bucket's objects (computed only when asked) name
/// the objects.
///
/// A tombstone's clock reading is left out on purpose: two peers that delete the same object
/// concurrently each keep the reading they saw first, and that reading changes nothing after.
public struct Digest: Equatable, Sendable {
    /// One object's (or tombstone's) hash, as listed in detail files.
    public struct ObjectHash: Codable, Equatable, Hashable, Sendable {
        public var entity: String
        public var id: String
        /// SHA-256 of its canonical bytes, hex.
        public var hash: String
        /// `true` for a tombstone.
        public var deleted: Bool?
    }

    /// The canonical bytes of one bucket's objects, with where each object's bytes are.
    struct Bucket: Equatable, Sendable {
        struct Entry: Equatable, Sendable {
            var entity: String
            var id: String
            var deleted: Bool
            var range: Range<Int>
        }

        var bytes: [UInt8] = []
        var entries: [Entry] = []
    }

    /// Per peer, the last log applied (this peer's own: the last one it exported). Peers with
    /// nothing applied are left out, so that "0" and "absent" compare equal.
    public var applied: [String: Int64]
    /// Bucket ("00" … "ff") → hash, non-empty buckets only.
    public var buckets: [String: String]
    /// The hash of the buckets.
    public var top: String
    /// Bucket → its objects' bytes: what detail files are made from. Not part of the digest file.
    var contents: [String: Bucket]

    /// Reads the whole store in the caller's (read) transaction.
    public static func compute(schema: Schema, applied: [String: Int64], _ db: Database) throws -> Digest {
        // Read whole, no bucket is irregular: never nil.
        let contents = try bucketContents(schema: schema, only: nil, db) ?? [:]
        let buckets = contents.mapValues { SHA256.hex($0.bytes) }
        return Digest(
            applied: applied.filter { $0.value > 0 }, buckets: buckets, top: topHash(buckets), contents: contents)
    }

    /// The contents of the buckets named in `only` (every bucket when `nil`), read in the
    /// caller's transaction: the very bytes ``compute(schema:applied:_:)`` gives them, since
    /// each bucket's rows are read in the same order (entities in schema order, each by ID, then
    /// tombstones by ID) through the primary key's range of the bucket's IDs.
    ///
    /// - Returns: the non-empty buckets; `nil` when a bucket's range held an ID whose bucket is
    ///   another one, or a name was no bucket of two hex digits (the caller then reads it all).
    static func bucketContents(schema: Schema, only: Set<String>?, _ db: Database) throws -> [String: Bucket]? {
        if let only, only.isEmpty { return [:] }
        var contents: [String: Bucket] = [:]
        var irregular = false
        func append(_ entity: String, _ id: String, deleted: Bool, _ write: (inout [UInt8]) -> Void) {
            let bucket = bucket(of: id)
            if let only, !only.contains(bucket) {
                irregular = true
                return
            }
            var content = contents.removeValue(forKey: bucket) ?? Bucket()
            let start = content.bytes.count
            write(&content.bytes)
            content.entries.append(.init(entity: entity, id: id, deleted: deleted, range: start..<content.bytes.count))
            contents[bucket] = content
        }
        // One scan of each table when reading whole; else one a range of IDs, each bucket's
        // ranges in ascending order, so that each bucket's rows come in the order of the whole
        // read. One range a query: each is a seek in the primary key (SQLite scanned the whole
        // key for ranges joined by OR, to give them in order).
        var scans: [StatementArguments] = []
        var rangeClause = ""
        if let only {
            for name in only.sorted() {
                guard let ranges = idRanges(ofBucket: name) else { return nil }
                scans += ranges.map { [$0.low, $0.high] }
            }
            rangeClause = " WHERE t.id >= ? AND t.id < ?"
        } else {
            scans = [[]]
        }
        for entity in schema.entities {
            let names = entity.propertyNames.sorted()
            let nameBytes = names.map { Array($0.utf8) }
            let nameFields = names.map { name in
                var field: [UInt8] = []
                Canonical.appendField(name, to: &field)
                return field
            }
            let types = names.map { entity.type(of: $0)! }
            let columns = names.map { "t." + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
            let statement = try db.cachedStatement(
                sql:
                    "SELECT t.id, \(columns), t.\(EngineTables.clockColumn) FROM \(entity.table.quotedDatabaseIdentifier) t\(rangeClause) ORDER BY t.id"
            )
            for arguments in scans {
                let rows = try Row.fetchCursor(statement, arguments: arguments)
                while let row = try rows.next() {
                    let id: String = row[0]
                    let clocks = clockReadings(row[names.count + 1])
                    append(entity.name, id, deleted: false) { bytes in
                        Canonical.append("O", entity.name, id, to: &bytes)
                        for index in names.indices {
                            bytes.append(contentsOf: nameFields[index])
                            Canonical.append(
                                PropertyValue(databaseValue: row[index + 1] as DatabaseValue, type: types[index]),
                                to: &bytes)
                            let reading = clocks.first { $0.name.elementsEqual(nameBytes[index]) }?.reading
                            if let reading {
                                Canonical.appendField(bytes: reading, to: &bytes)
                            } else {
                                bytes.append(contentsOf: Canonical.noReading)
                            }
                        }
                    }
                }
            }
        }
        let tombstoneStatement = try db.cachedStatement(
            sql:
                "SELECT t.objectID, t.entity FROM \(EngineTables.tombstone) t\(rangeClause.replacingOccurrences(of: "t.id", with: "t.objectID")) ORDER BY t.objectID"
        )
        for arguments in scans {
            let tombstones = try Row.fetchCursor(tombstoneStatement, arguments: arguments)
            while let row = try tombstones.next() {
                let id: String = row[0]
                let entity: String = row[1]
                append(entity, id, deleted: true) { bytes in Canonical.append("D", entity, id, to: &bytes) }
            }
        }
        return irregular ? nil : contents
    }

    /// The ranges of IDs (`low <= id < high`) that hold the IDs of a bucket of two hex digits,
    /// in either case, in ascending order ("ab": "AB" to "AC", "Ab" to "Ac", "aB" to "aC", "ab"
    /// to "ac"); `nil` for any other name.
    static func idRanges(ofBucket name: String) -> [(low: String, high: String)]? {
        let digits = Array(name.utf8)
        guard digits.count == 2, digits.allSatisfy({ isLowerHexDigit($0) }) else { return nil }
        func cases(_ digit: UInt8) -> [UInt8] {
            digit >= UInt8(ascii: "a") ? [digit, digit - 32] : [digit]
        }
        var ranges: [(low: String, high: String)] = []
        for first in cases(digits[0]).reversed() {
            for second in cases(digits[1]).reversed() {
                ranges.append(
                    (
                        String(decoding: [first, second], as: UTF8.self),
                        String(decoding: [first, second + 1], as: UTF8.self)
                    ))
            }
        }
        return ranges
    }

    /// `0`…`9`, `a`…`f`.
    static func isLowerHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }

    /// Each property's clock reading as stored, as bytes, not parsed: the readings are written
    /// in their canonical text form, and parsing them was most of the time. Both forms of
    /// ``PropertyClocks/decode(_:)``: `reading:name,name;…` and the older `name=reading;…`.
    private static func clockReadings(_ text: String?) -> [(name: ArraySlice<UInt8>, reading: ArraySlice<UInt8>)] {
        guard let text else { return [] }
        let bytes = Array(text.utf8)
        var readings: [(name: ArraySlice<UInt8>, reading: ArraySlice<UInt8>)] = []
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            if let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")) {
                readings.append((bytes[start..<equals], bytes[(equals + 1)..<end]))
            } else if let colon = bytes[start..<end].firstIndex(of: UInt8(ascii: ":")) {
                let reading = bytes[start..<colon]
                for name in bytes[(colon + 1)..<end].split(separator: UInt8(ascii: ",")) {
                    readings.append((name, reading))
                }
            }
            start = end + 1
        }
        return readings
    }

    /// The hashes of a bucket's objects, in order.
    func objects(in bucket: String) -> [ObjectHash] {
        guard let content = contents[bucket] else { return [] }
        return content.entries.map { entry in
            ObjectHash(
                entity: entry.entity, id: entry.id, hash: SHA256.hex(content.bytes[entry.range]),
                deleted: entry.deleted ? true : nil)
        }
    }

    /// This digest with the contents of `names` that it lacks (a digest computed again in part
    /// holds only the contents of the buckets it computed), read in the caller's transaction.
    ///
    /// - Returns: `nil` when one of them no longer hashes as the digest says: the store changed since.
    func filledIn(_ names: [String], schema: Schema, _ db: Database) throws -> Digest? {
        let missing = Set(names.filter { buckets[$0] != nil && contents[$0] == nil })
        guard !missing.isEmpty else { return self }
        guard let read = try Digest.bucketContents(schema: schema, only: missing, db) else { return nil }
        var filled = self
        for name in missing {
            guard let content = read[name], SHA256.hex(content.bytes) == buckets[name] else { return nil }
            filled.contents[name] = content
        }
        return filled
    }

    /// The bucket of an object: the first two hex digits of its ID.
    static func bucket(of id: String) -> String { String(id.prefix(2)).lowercased() }

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
        appendField(bytes: text.utf8, to: &bytes)
    }

    static func appendField<Field: Collection>(bytes field: Field, to bytes: inout [UInt8])
    where Field.Element == UInt8 {
        appendDecimal(field.count, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(contentsOf: field)
    }

    /// The field of `tag` followed by `text`, as `appendField(tag + text)` gives it.
    static func appendField(tag: Unicode.Scalar, _ text: String.UTF8View, to bytes: inout [UInt8]) {
        appendDecimal(1 + text.count, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: tag))
        bytes.append(contentsOf: text)
    }

    /// The field of `tag` followed by `value`'s lowercase hex digits, as
    /// `appendField(tag + String(value, radix: 16))` gives it.
    static func appendField(tag: Unicode.Scalar, hex value: UInt64, to bytes: inout [UInt8]) {
        var digits = 1
        while digits < 16, value >> (4 * UInt64(digits)) != 0 { digits += 1 }
        appendDecimal(1 + digits, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: tag))
        for index in (0..<digits).reversed() {
            bytes.append(hexDigits[Int((value >> (4 * UInt64(index))) & 0xF)])
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The field of a property without a clock reading: "-".
    static let noReading: [UInt8] = Array("1:-".utf8)

    /// A count's decimal digits, as `String(count)` gives them, without making the string
    /// (most of a digest's time was spent in small strings).
    static func appendDecimal(_ count: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        while divisor <= count / 10 { divisor *= 10 }
        var rest = count
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    static func append(_ kind: String, _ entity: String, _ id: String, to bytes: inout [UInt8]) {
        appendField(kind, to: &bytes)
        appendField(entity, to: &bytes)
        appendField(id, to: &bytes)
    }

    /// The tag of a string value's field: "s".
    static let stringTag: [UInt8] = Array("1:s".utf8)

    /// A typed form: a tag, then the value. Doubles and dates by their bit pattern, data by the
    /// SHA-256 of its bytes.
    static func append(_ value: PropertyValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: appendField("n", to: &bytes)
        case .bool(let value): appendField(value ? "b1" : "b0", to: &bytes)
        case .integer(let value): appendField(tag: "i", String(value).utf8, to: &bytes)
        case .double(let value): appendField(tag: "d", hex: value.bitPattern, to: &bytes)
        case .string(let value):
            bytes.append(contentsOf: stringTag)
            appendField(value, to: &bytes)
        case .date(let value): appendField(tag: "t", hex: value.timeIntervalSince1970.bitPattern, to: &bytes)
        case .data(let value): appendField(tag: "x", SHA256.hex(value).utf8, to: &bytes)
        case .reference(let value): appendField(tag: "r", value.description.utf8, to: &bytes)
        case .blob(let hash): appendField(tag: "h", hash.utf8, to: &bytes)
        }
    }
}
