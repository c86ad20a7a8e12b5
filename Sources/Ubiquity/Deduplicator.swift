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

/// Finds objects whose unique attribute has the same key (``UniqueKey``) and merges each group
/// into one survivor, chosen alike on every peer: the newest modification date; on a tie, the
/// most non-empty properties; on a tie, the greatest global ID. Before a duplicate is deleted,
/// the survivor takes every property it lacks from it, and everything that pointed at it points
/// at the survivor — nothing is lost, unlike the book's deduplicator.
///
/// One grouped query per entity finds the duplicated keys; only their objects are read, a batch
/// of keys per save. A run when nothing changed since the last one costs one read.
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
        for entity in store.schema.entities {
            guard let unique = entity.uniqueAttribute else { continue }
            let table = entity.table.quotedDatabaseIdentifier, column = unique.quotedDatabaseIdentifier
            let keys = try store.read { db in
                try String.fetchAll(db, sql: """
                    SELECT ubiquity_unique_key(\(column)) AS k FROM \(table) WHERE \(column) IS NOT NULL
                    GROUP BY k HAVING count(*) > 1 AND k != ''
                    """)
            }
            var index = 0
            while index < keys.count {
                let batch = Array(keys[index..<min(index + batchSize, keys.count)])
                index += batch.count
                merges += try store.save(author: "dedupe") { context in
                    let marks = Array(repeating: "?", count: batch.count).joined(separator: ", ")
                    let rows = try Row.fetchAll(context.db, sql: """
                        SELECT id, ubiquity_unique_key(\(column)) AS k FROM \(table) WHERE ubiquity_unique_key(\(column)) IN (\(marks))
                        """, arguments: StatementArguments(batch))
                    var groups: [String: [GlobalID]] = [:]
                    for row in rows {
                        if let id = GlobalID(row["id"] as String) { groups[row["k"], default: []].append(id) }
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

    /// Merges one group of duplicates into its survivor.
    private func merge(_ ids: [GlobalID], of entity: EntityDescription, in context: SaveContext) throws -> DeduplicationReport.Merge? {
        var objects: [(id: GlobalID, values: [String: PropertyValue])] = []
        for id in ids {
            if let values = try context.values(of: entity.name, id: id) { objects.append((id, values)) }
        }
        guard objects.count > 1 else { return nil }
        let ranked = objects.sorted { Self.ranks($0, above: $1, entity: entity) }
        let winner = ranked[0]
        let losers = Array(ranked.dropFirst())
        let modified = entity.modificationDateAttribute

        // The survivor takes what it lacks, from the best-ranked duplicate that has it.
        var carried: [String: PropertyValue] = [:]
        for name in entity.propertyNames where name != modified && Self.isEmpty(winner.values[name]) {
            if let value = losers.lazy.compactMap({ Self.isEmpty($0.values[name]) ? nil : $0.values[name] }).first {
                carried[name] = value
            }
        }
        if !carried.isEmpty {
            var values = carried
            if let modified { values[modified] = winner.values[modified] }  // merging is not an edit
            try context.update(entity.name, id: winner.id, values: values)
        }
        for loser in losers {
            // Everything that pointed at the duplicate points at the survivor.
            for (source, relationship) in store.schema.relationships(pointingAt: entity.name) {
                let pointing = try GlobalID.fetchAll(context.db, sql: """
                    SELECT id FROM \(source.table.quotedDatabaseIdentifier) WHERE \(relationship.name.quotedDatabaseIdentifier) = ?
                    """, arguments: [loser.id.description])
                for sourceID in pointing {
                    var values: [String: PropertyValue] = [relationship.name: .reference(winner.id)]
                    if let sourceModified = source.modificationDateAttribute,
                       let current = try context.values(of: source.name, id: sourceID)?[sourceModified] {
                        values[sourceModified] = current
                    }
                    try context.update(source.name, id: sourceID, values: values)
                }
            }
            // What the survivor took must not go with the duplicate's cascading delete.
            var detach: [String: PropertyValue] = [:]
            for relationship in entity.relationships where relationship.deleteRule == .cascade {
                if let value = loser.values[relationship.name], value != .null, carried[relationship.name] == value {
                    detach[relationship.name] = .null
                }
            }
            if !detach.isEmpty { try context.update(entity.name, id: loser.id, values: detach) }
            try context.delete(entity.name, id: loser.id)
        }
        let spelled: String
        if case .string(let text) = winner.values[entity.uniqueAttribute ?? ""] { spelled = text } else { spelled = "" }
        return DeduplicationReport.Merge(entity: entity.name, value: spelled, winner: winner.id, losers: losers.map(\.id),
                                         carried: carried.keys.sorted())
    }

    /// The survivor rule: newest modification date, then most non-empty properties, then the
    /// greatest global ID.
    static func ranks(_ a: (id: GlobalID, values: [String: PropertyValue]), above b: (id: GlobalID, values: [String: PropertyValue]),
                      entity: EntityDescription) -> Bool {
        if let modified = entity.modificationDateAttribute,
           case .date(let left)? = a.values[modified], case .date(let right)? = b.values[modified], left != right {
            return left > right
        }
        let filledA = a.values.values.filter { !isEmpty($0) }.count
        let filledB = b.values.values.filter { !isEmpty($0) }.count
        if filledA != filledB { return filledA > filledB }
        return a.id.description > b.id.description
    }

    static func isEmpty(_ value: PropertyValue?) -> Bool {
        switch value {
        case nil, .null?: true
        case .string(let text)?: text.allSatisfy(\.isWhitespace)
        default: false
        }
    }
}
