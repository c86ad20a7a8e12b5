import GRDB
import TextAndFiles

/// ``TextFolding/fold(_:)`` in a store's SQL, so that a search's folding and the names' are one.
extension TextFolding {
    /// The name of ``TextFolding/fold(_:)`` in a store's SQL: `ubiquity_fold(text)`.
    public static let sqlName = "ubiquity_fold"

    /// ``sqlName`` in SQL, registered on every connection of a store.
    static let sqlFunction = DatabaseFunction(sqlName, argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(fold)
    }
}
