import Foundation

extension TransactionRecord {
    /// The record as JSON, written by hand in exactly the form its `Codable` conformance reads
    /// (keys sorted). Foundation's encoder was the largest cost of a save; this is what the
    /// outbox and the logs store.
    public func jsonData() -> Data {
        var out = "{"
        out += "\"author\":" + Self.quoted(author)
        if let clock { out += ",\"clock\":" + Self.quoted(clock.description) }
        out += ",\"deleted\":[" + deleted.map(Self.object).joined(separator: ",") + "]"
        out += ",\"inserted\":[" + inserted.map(Self.change).joined(separator: ",") + "]"
        out += ",\"timestamp\":" + Self.number(timestamp.timeIntervalSinceReferenceDate)
        out += ",\"transactionID\":" + Self.quoted(transactionID.description)
        out += ",\"updated\":[" + updated.map(Self.change).joined(separator: ",") + "]"
        out += "}"
        return Data(out.utf8)
    }

    private static func object(_ object: ObjectID) -> String {
        "{\"entity\":" + quoted(object.entity) + ",\"id\":" + quoted(object.id.description) + "}"
    }

    private static func change(_ change: ObjectChange) -> String {
        let values = change.values.sorted { $0.key < $1.key }.map { quoted($0.key) + ":" + value($0.value) }
        return "{\"object\":" + object(change.object) + ",\"values\":{" + values.joined(separator: ",") + "}}"
    }

    private static func value(_ value: PropertyValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): "{\"b\":" + (bool ? "true" : "false") + "}"
        case .integer(let integer): "{\"i\":" + String(integer) + "}"
        case .double(let double): "{\"d\":" + number(double) + "}"
        case .string(let string): "{\"s\":" + quoted(string) + "}"
        case .date(let date): "{\"t\":" + number(date.timeIntervalSince1970) + "}"
        case .data(let data): "{\"x\":\"" + data.base64EncodedString() + "\"}"
        case .reference(let id): "{\"r\":\"" + id.description + "\"}"
        case .blob(let hash): "{\"h\":\"" + hash + "\"}"
        }
    }

    /// Swift's shortest text that reads back as the same Double; finite values only reach here
    /// (validation refuses the others), but they are written as 0 rather than invalid JSON.
    private static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func quoted(_ text: String) -> String {
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
