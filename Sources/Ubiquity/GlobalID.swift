import Foundation

/// The global identity of one object, the same on every peer: a UUID given when the object is
/// inserted and never reused.
///
/// Stored in SQLite as lowercase text; ordered by that text, which is what deterministic
/// tie-breaks compare.
public struct GlobalID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let uuid: UUID

    public init(_ uuid: UUID) { self.uuid = uuid }

    /// Parses the textual form (any case); `nil` when it is not a UUID.
    public init?(_ text: String) {
        guard let uuid = UUID(uuidString: text) else { return nil }
        self.uuid = uuid
    }

    /// Lowercase UUID text, as stored in the database and in files.
    public var description: String { uuid.uuidString.lowercased() }

    public static func < (lhs: GlobalID, rhs: GlobalID) -> Bool { lhs.description < rhs.description }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = GlobalID(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a UUID: \(text)")
        }
        self = id
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// An object's identity together with its entity's name.
public struct ObjectID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public let entity: String
    public let id: GlobalID

    public init(entity: String, id: GlobalID) {
        self.entity = entity
        self.id = id
    }

    public var description: String { "\(entity)/\(id)" }

    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        (lhs.entity, lhs.id.description) < (rhs.entity, rhs.id.description)
    }
}

// MARK: - Database

import GRDB

extension GlobalID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { description.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> GlobalID? {
        String.fromDatabaseValue(dbValue).flatMap(GlobalID.init)
    }
}
