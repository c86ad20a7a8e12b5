import GRDB
import Logging
import Ubiquity

/// The indexes a grocery store keeps beside its model's tables: made when missing, and those no
/// query reads dropped, when a store opens. Local to the device (indexes do not sync, and make
/// no change of format), so this is no model version's migration: an older build opens the store
/// as it is.
///
/// - `item_list_order`, the order lists show items in (`name COLLATE NOCASE, id`): reading a
///   list's order is a scan of it, not a sort of every item (docs/decisions/0038).
/// - The first model version made an index of each name and of `listed`. A name is found through
///   the engine's index of its key; `WHERE listed` tests the column as a truth value, which SQLite
///   answers by scanning the items or reading them in list order, never from an index of it. No
///   query reads those, and each was one more B-tree written by every item saved or imported:
///   they are dropped (docs/decisions/0124).
/// - The indexes of the relationships stay: a deleted or merged object's referrers are found by
///   them (`WHERE unit = ?`). The photo's holds only the items that have one
///   (`item_photo_given`, `WHERE photo IS NOT NULL`): most have none, and a query for the items
///   of a photo reads it all the same (SQLite takes `photo = ?` to imply the condition).
enum LocalIndexes {
    /// The indexes made when missing, and how.
    static let made: KeyValuePairs<String, String> = [
        "item_list_order": "ON item(name COLLATE NOCASE, id)",
        "item_photo_given": "ON item(photo) WHERE photo IS NOT NULL",
    ]
    /// The indexes of the first model version that no query reads, or that one above replaces.
    static let unread = [
        "item_on_name", "item_on_listed", "item_on_photo", "unit_on_name", "locationAtHome_on_storedIn",
        "locationAtShop_on_aisle",
    ]

    /// One read when everything is in place already (each command's open); one write otherwise.
    /// The write is best effort: the queries read the same rows without these indexes, only
    /// slower, so a store that cannot be written now (a full disk) still opens, and the next open
    /// tries again.
    static func ensure(_ objects: ObjectStore, logger: Logger) throws {
        let wanted = Set(made.map(\.key))
        let names = Array(wanted) + unread
        let present = try objects.read { db in
            try String.fetchSet(
                db,
                sql:
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND name IN (\(names.map { _ in "?" }.joined(separator: ", ")))",
                arguments: StatementArguments(names))
        }
        guard present != wanted else { return }
        do {
            try objects.write { db in
                for (name, definition) in made {
                    try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(name.quotedDatabaseIdentifier) \(definition)")
                }
                for index in unread { try db.execute(sql: "DROP INDEX IF EXISTS \(index.quotedDatabaseIdentifier)") }
            }
        } catch {
            logger.warning("the store's indexes were left as they are, to be put right at its next open: \(error)")
        }
    }
}
