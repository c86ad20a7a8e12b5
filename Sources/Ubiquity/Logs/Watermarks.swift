import GRDB

/// Per folder of logs (`v<model version>/epoch-<n>`) and peer, the last log applied: what an
/// import starts after. This peer's own row moves with each export.
enum Watermarks {
    static func get(_ peer: String, folder: String, _ db: Database) throws -> Int64 {
        try Int64.fetchCached(
            db, "SELECT lastSeq FROM \(EngineTables.peerState) WHERE folder = ? AND peer = ?", [folder, peer]) ?? 0
    }

    static func set(_ peer: String, _ seq: Int64, folder: String, _ db: Database) throws {
        try db.executeCached(
            "INSERT OR REPLACE INTO \(EngineTables.peerState) (folder, peer, lastSeq) VALUES (?, ?, ?)",
            [folder, peer, seq])
    }

    static func all(folder: String, _ db: Database) throws -> [String: Int64] {
        Dictionary(
            uniqueKeysWithValues: try Row.fetchAll(
                db.cachedStatement(sql: "SELECT peer, lastSeq FROM \(EngineTables.peerState) WHERE folder = ?"),
                arguments: [folder]
            )
            .map { ($0[0] as String, $0[1] as Int64) })
    }
}

extension CloudLayout {
    /// The key of this layout's logs folder in the watermarks.
    var watermarkFolder: String { "v\(modelVersion)/epoch-\(epoch)" }
}
