import Foundation
import GRDB

/// One property's value as it travels in a transaction record: an attribute's value or a
/// to-one relationship's target ID.
///
/// Encoded as a small tagged object (`{"s":"Milk"}`, `{"d":1.5}`, `{"r":"<uuid>"}`, `null`), so
/// that a reader never has to guess a type from JSON's numbers.
public enum PropertyValue: Hashable, Sendable, Codable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case date(Date)
    case data(Data)
    case reference(GlobalID)
    /// Binary data stored beside the logs as a content-addressed file, by its SHA-256. Only in
    /// log files: the importer resolves it to `data` before anything is stored.
    case blob(String)

    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .double(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .date(let value): value.formatted(.iso8601)
        case .data(let value): "<\(value.count) bytes>"
        case .reference(let value): "→\(value)"
        case .blob(let hash): "<blob \(hash.prefix(12))>"
        }
    }

    // MARK: - Codable

    private enum Tag: String, CodingKey {
        case b, i, d, s, t, x, r, h
    }

    public init(from decoder: Decoder) throws {
        if let single = try? decoder.singleValueContainer(), single.decodeNil() {
            self = .null
            return
        }
        let container = try decoder.container(keyedBy: Tag.self)
        guard let key = container.allKeys.first, container.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath, debugDescription: "a property value has exactly one tag"))
        }
        switch key {
        case .b: self = .bool(try container.decode(Bool.self, forKey: key))
        case .i: self = .integer(try container.decode(Int64.self, forKey: key))
        case .d: self = .double(try container.decode(Double.self, forKey: key))
        case .s: self = .string(try container.decode(String.self, forKey: key))
        case .t: self = .date(Date(timeIntervalSince1970: try container.decode(Double.self, forKey: key)))
        case .x:
            let text = try container.decode(String.self, forKey: key)
            guard let data = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "bad base64")
            }
            self = .data(data)
        case .r: self = .reference(try container.decode(GlobalID.self, forKey: key))
        case .h:
            let hash = try container.decode(String.self, forKey: key)
            guard hash.count == 64, hash.allSatisfy(\.isHexDigit) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a SHA-256")
            }
            self = .blob(hash)
        }
    }

    public func encode(to encoder: Encoder) throws {
        if case .null = self {
            var single = encoder.singleValueContainer()
            try single.encodeNil()
            return
        }
        var container = encoder.container(keyedBy: Tag.self)
        switch self {
        case .null: break
        case .bool(let value): try container.encode(value, forKey: .b)
        case .integer(let value): try container.encode(value, forKey: .i)
        case .double(let value): try container.encode(value, forKey: .d)
        case .string(let value): try container.encode(value, forKey: .s)
        case .date(let value): try container.encode(value.timeIntervalSince1970, forKey: .t)
        case .data(let value): try container.encode(value.base64EncodedString(), forKey: .x)
        case .reference(let value): try container.encode(value, forKey: .r)
        case .blob(let hash): try container.encode(hash, forKey: .h)
        }
    }
}

// MARK: - Database values

extension PropertyValue {
    /// The value as stored in a column. Dates are stored as seconds since 1970 (REAL), so that
    /// they sort and compare in SQL.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .bool(let value): value.databaseValue
        case .integer(let value): value.databaseValue
        case .double(let value): value.databaseValue
        case .string(let value): value.databaseValue
        case .date(let value): value.timeIntervalSince1970.databaseValue
        case .data(let value): value.databaseValue
        case .reference(let value): value.description.databaseValue
        case .blob: .null  // resolved before storing; never written as such
        }
    }

    /// Reads a stored column back as a property value of the declared type; a value that does
    /// not convert reads as null.
    init(databaseValue: DatabaseValue, type: PropertyType) {
        self = Self.converting(databaseValue, to: type) ?? .null
    }

    // Written as plain `if let`s: a chain of `map`s here crashed the 6.3 optimizer (-O).
    private static func converting(_ value: DatabaseValue, to type: PropertyType) -> PropertyValue? {
        if value.isNull { return nil }
        switch type {
        case .bool:
            if let bool = Bool.fromDatabaseValue(value) { return .bool(bool) }
        case .integer:
            if let integer = Int64.fromDatabaseValue(value) { return .integer(integer) }
        case .double:
            if let double = Double.fromDatabaseValue(value) { return .double(double) }
        case .string:
            if let string = String.fromDatabaseValue(value) { return .string(string) }
        case .date:
            if let seconds = Double.fromDatabaseValue(value) { return .date(Date(timeIntervalSince1970: seconds)) }
        case .data:
            if let data = Data.fromDatabaseValue(value) { return .data(data) }
        case .reference:
            if let text = String.fromDatabaseValue(value), let id = GlobalID(text) { return .reference(id) }
        }
        return nil
    }

    /// Whether this value may be stored in a property of `type`.
    func fits(_ type: PropertyType) -> Bool {
        switch (self, type) {
        case (.null, _), (.bool, .bool), (.integer, .integer), (.double, .double), (.string, .string),
            (.date, .date), (.data, .data), (.reference, .reference), (.blob, .data):
            true
        default:
            false
        }
    }
}
