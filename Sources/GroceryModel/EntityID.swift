import Foundation
import GRDB
import Ubiquity

/// The identity of one object of the model's entity `Entity`: an item (``ItemID``), a unit
/// (``UnitID``), a home location (``HomeLocationID``), a shop aisle (``ShopLocationID``) or an
/// item's photo (``PhotoID``).
///
/// It wraps the engine's `GlobalID`, which only the model's and the device's code read
/// (`package`): the screens and commands above hold these values without knowing the engine.
/// The entity is a type parameter, so a unit's ID cannot be passed where an item's is expected.
/// Its string form is the engine's (lowercase UUID text), the text that `--json` output, tables
/// and typed references show and read.
public struct EntityID<Entity: ModelEntity>: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The engine's identity of the object.
    package let globalID: GlobalID

    package init(_ globalID: GlobalID) { self.globalID = globalID }

    /// Parses the textual form (any case); `nil` when it is not a UUID.
    public init?(_ text: String) {
        guard let globalID = GlobalID(text) else { return nil }
        self.globalID = globalID
    }

    /// Lowercase UUID text, as stored and printed.
    public var description: String { globalID.description }

    /// Ordered by text, as the engine orders its IDs.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.globalID < rhs.globalID }
}

/// Encoded as its text, like the engine's ID.
extension EntityID: Codable {
    public init(from decoder: Decoder) throws {
        self.init(try GlobalID(from: decoder))
    }

    public func encode(to encoder: Encoder) throws {
        try globalID.encode(to: encoder)
    }
}

// MARK: - Database

/// Stored as the engine's ID is: an item's link columns and the `id` columns read straight into
/// typed IDs.
extension EntityID: DatabaseValueConvertible, StatementColumnConvertible {
    public var databaseValue: DatabaseValue { globalID.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        GlobalID.fromDatabaseValue(dbValue).map(Self.init)
    }

    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let globalID = GlobalID(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self.init(globalID)
    }
}

// MARK: - Engine values

extension EntityID {
    /// The link to this object, as a property value of a save.
    var reference: PropertyValue { .reference(globalID) }
}
