import Foundation
import GRDB

/// What one deduplication merged.
public struct DeduplicationReport: Equatable, Sendable {
    public struct Merge: Equatable, Sendable {
        public var entity: String
        /// The survivor's unique attribute, as it spells it.
        public var value: String
        public var winner: GlobalID
        public var losers: [GlobalID]
        /// The properties the survivor took from the others.
        public var carried: [String]
    }

    public var merges: [Merge] = []
    /// True when nothing changed since the last run, which then read nothing.
    public var unchangedSinceLastRun = false

    public init() {}

    public var mergedCount: Int { merges.reduce(0) { $0 + $1.losers.count } }
}

/// Finds objects with the same unique key (``EntityDescription/uniqueKey``: texts by
/// ``UniqueKey``, references by ID) and merges each group of copies into one (``SaveContext/merge(_:id:with:chosen:reading:)``), alike on every peer:
///
/// - the copy with the smallest global ID holds the object: IDs never change, so two peers
///   deduplicating at once, whatever each has seen, keep the same copy — never both deleted;
/// - it keeps, property by property, the newest value any copy had (by clock reading), so no
///   edit is lost; an edit made elsewhere to a copy merged away lands on it, whenever it comes;
/// - an object that others point at (a unit, a location) is spelled as the copies that the most
///   objects point at (on a tie, the newest spelling): "kg" used by five items wins over "KG"
///   used by one. The spelling is written with a reading just after the spellings it chose
///   among, so a rename made anywhere later still wins.
///
/// Everything that pointed at a copy merged away points at the survivor. Objects keyed by what
/// they point at (an item's aisle in a shop) may become copies of each other then: a run goes
/// on until a pass merges nothing.
///
/// One grouped query per entity finds the duplicated keys, reading only the index of keys
/// (``UniqueKeyIndex``); only their objects are read, a batch of keys per save. A run when
/// nothing changed since the last one costs one read.
public struct Deduplicator: Sendable {
    public let store: ObjectStore
    public var batchSize = 100

    /// Named after the rule of ``UniqueKey``: when the rule changes (it became
    /// normalization-insensitive), the first run reads everything again.
    static let tokenKey = "dedupeToken.nfc-casefold"

    public init(store: ObjectStore) {
        self.store = store
    }

    public func run() throws -> DeduplicationReport {
        var report = DeduplicationReport()
        let token = try store.changeToken()
        if try store.metadata(Self.tokenKey) == String(token) {
            report.unchangedSinceLastRun = true
            return report
        }
        // Until a pass merges nothing: another process may have saved meanwhile.
        var start = token
        while true {
            let merges = try pass()
            report.merges += merges
            if merges.isEmpty { break }
            start = try store.changeToken()
        }
        try store.setMetadata(Self.tokenKey, String(start))
        return report
    }

    private func pass() throws -> [DeduplicationReport.Merge] {
        var merges: [DeduplicationReport.Merge] = []
        for entity in store.schema.entities where !entity.uniqueKey.isEmpty {
            let table = entity.table.quotedDatabaseIdentifier
            let parts = UniqueKeyIndex.keyExpressions(of: entity)
            let texts = entity.uniqueKey.map { entity.type(of: $0) == .string }
            let keys = try store.read { db in
                try Row.fetchAll(db, sql: Self.duplicatedKeys(table: table, parts: parts, texts: texts)).map { row in
                    (0..<parts.count).map { row[$0] as String }
                }
            }
            var index = 0
            while index < keys.count {
                let batch = Array(keys[index..<min(index + batchSize, keys.count)])
                index += batch.count
                merges += try store.save(author: "dedupe") { context in
                    let rows = try Row.fetchAll(
                        context.db, sql: Self.copies(table: table, parts: parts, count: batch.count),
                        arguments: StatementArguments(batch.flatMap { $0 }))
                    var groups: [[String]: [GlobalID]] = [:]
                    for row in rows {
                        guard let id = GlobalID(row["id"] as String) else { continue }
                        groups[(1...parts.count).map { row[$0] as String }, default: []].append(id)
                    }
                    return try batch.compactMap { key in
                        guard let ids = groups[key], ids.count > 1 else { return nil }
                        return try merge(ids, of: entity, in: context)
                    }
                }
            }
        }
        return merges
    }

    /// The keys more than one object of `table` has: the expressions of ``UniqueKeyIndex``
    /// word for word, so that SQLite reads the index alone. A key with a part missing (null,
    /// or an empty text) is none. (Quoted names.)
    static func duplicatedKeys(table: String, parts: [String], texts: [Bool]) -> String {
        let aliases = parts.indices.map { "k\($0)" }
        let selected = zip(parts, aliases).map { "\($0) AS \($1)" }.joined(separator: ", ")
        let present = aliases.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
        let nonEmpty = zip(aliases, texts).filter(\.1).map { " AND \($0.0) != ''" }.joined()
        return """
            SELECT \(selected) FROM \(table) WHERE \(present)
            GROUP BY \(aliases.joined(separator: ", ")) HAVING count(*) > 1\(nonEmpty)
            """
    }

    /// ``duplicatedKeys(table:parts:texts:)`` of a key of one text attribute.
    static func duplicatedKeys(table: String, column: String) -> String {
        duplicatedKeys(table: table, parts: ["\(UniqueKey.sqlName)(\(column))"], texts: [true])
    }

    /// The objects of `count` keys, each with its key's parts after its ID.
    static func copies(table: String, parts: [String], count: Int) -> String {
        let tuple = parts.count == 1 ? parts[0] : "(\(parts.joined(separator: ", ")))"
        let marks = "(" + Array(repeating: "?", count: parts.count).joined(separator: ", ") + ")"
        let list =
            parts.count == 1
            ? Array(repeating: "?", count: count).joined(separator: ", ")
            : "VALUES " + Array(repeating: marks, count: count).joined(separator: ", ")
        return "SELECT id, \(parts.joined(separator: ", ")) FROM \(table) WHERE \(tuple) IN (\(list))"
    }

    /// Merges one group of copies into the one with the smallest ID.
    private func merge(_ ids: [GlobalID], of entity: EntityDescription, in context: SaveContext) throws
        -> DeduplicationReport.Merge?
    {
        let copies = ids.sorted()
        guard copies.count > 1, let survivor = copies.first else { return nil }
        let (chosen, reading) = try spelling(of: copies, entity: entity, in: context)
        var carried: Set<String> = []
        for copy in copies.dropFirst() {
            carried.formUnion(
                try context.merge(entity.name, id: copy, with: survivor, chosen: chosen, reading: reading).carried)
        }
        if let modified = entity.modificationDateAttribute { carried.remove(modified) }
        if !chosen.isEmpty, let unique = entity.uniqueAttribute { carried.insert(unique) }
        var spelled = ""
        if let unique = entity.uniqueAttribute,
            case .string(let text)? = try context.values(of: entity.name, id: survivor)?[unique]
        {
            spelled = text
        }
        return DeduplicationReport.Merge(
            entity: entity.name, value: spelled, winner: survivor, losers: Array(copies.dropFirst()),
            carried: carried.sorted())
    }

    /// For an object others point at: the spelling of the copies that the most objects point
    /// at, then the newest — with the reading to write it at, or nothing when merging gives that
    /// spelling anyway (it keeps the newest).
    private func spelling(of copies: [GlobalID], entity: EntityDescription, in context: SaveContext) throws
        -> (chosen: [String: PropertyValue], reading: HLC?)
    {
        // Objects that belong to it (an item's aisle in a shop) are part of it, not users of its name.
        let pointing = store.schema.relationships(pointingAt: entity.name).filter { !$0.relationship.belongsToTarget }
        guard let unique = entity.uniqueAttribute, !pointing.isEmpty else { return ([:], nil) }
        struct Spelling {
            var uses = 0
            var newest: HLC?
        }
        var spellings: [String: Spelling] = [:]
        // What merging gives: the spelling with the latest reading (a copy without one keeps
        // the survivor's, the first).
        var merged: (text: String, reading: HLC?)?
        for copy in copies {
            guard case .string(let text)? = try context.values(of: entity.name, id: copy)?[unique] else { continue }
            var uses = 0
            for (source, relationship) in pointing {
                uses +=
                    try Int.fetchOne(
                        context.db,
                        sql: """
                            SELECT count(*) FROM \(source.table.quotedDatabaseIdentifier) WHERE \(relationship.name.quotedDatabaseIdentifier) = ?
                            """, arguments: [copy.description]) ?? 0
            }
            let reading = try context.readings(of: ObjectID(entity: entity.name, id: copy), in: entity)[unique]
            var spelling = spellings[text] ?? Spelling()
            spelling.uses += uses
            if Self.isLater(reading, than: spelling.newest) { spelling.newest = reading }
            spellings[text] = spelling
            if merged == nil || Self.isLater(reading, than: merged?.reading) { merged = (text, reading) }
        }
        let ranked = spellings.sorted { a, b in
            if a.value.uses != b.value.uses { return a.value.uses > b.value.uses }
            if a.value.newest != b.value.newest { return Self.isLater(a.value.newest, than: b.value.newest) }
            return a.key < b.key
        }
        guard let merged, let best = ranked.first?.key, best != merged.text else { return ([:], nil) }
        let latest = spellings.values.compactMap(\.newest).max()
        guard let reading = HLC.next(after: latest, now: Date(timeIntervalSince1970: 0), peer: store.peer) else {
            return ([:], nil)
        }
        return ([unique: .string(best)], reading)
    }

    /// Whether a reading is later than another; no reading is the earliest.
    static func isLater(_ reading: HLC?, than other: HLC?) -> Bool {
        guard let reading else { return false }
        guard let other else { return true }
        return reading > other
    }

    /// No value, or only spaces: what the seeder fills from a copy.
    static func isEmpty(_ value: PropertyValue?) -> Bool {
        switch value {
        case nil, .null?: true
        case .string(let text)?: text.allSatisfy(\.isWhitespace)
        default: false
        }
    }
}
