import Foundation

/// The project's own JSON format: a ``GroceryArchive``, dates as ISO 8601 with milliseconds,
/// photos as base64, keys sorted so that exports diff well.
///
/// Reading checks that the file is UTF-8 (``UTF8Text``), nests no deeper than
/// ``JSONNesting/limit``, and that its dates are ``FileDate``s.
public enum JSONArchiveCoder {
    public static func encode(_ archive: GroceryArchive) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Timestamp.string(date))
        }
        return try encoder.encode(archive) + Data("\n".utf8)
    }

    public static func decode(_ data: Data) throws -> GroceryArchive {
        try UTF8Text.check(data)
        try JSONNesting.check(data)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = Timestamp.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "\(text.debugDescription) is not an ISO 8601 date")
            }
            guard FileDate.isValid(date) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "\(text.debugDescription) is not a date \(FileDate.range)")
            }
            return date
        }
        do {
            return try decoder.decode(GroceryArchive.self, from: data)
        } catch let error as DecodingError {
            throw ArchiveError.malformed(describe(error))
        } catch {
            throw ArchiveError.malformed("not valid JSON")
        }
    }

    /// One line saying where and what, instead of DecodingError's dump.
    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [CodingKey]) -> String {
            let text = keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return text.isEmpty ? "the top level" : String(text.drop { $0 == "." })
        }
        switch error {
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not valid JSON" }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) should be \(type == Double.self ? "a number" : "\(type)")"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) should be \(type), not null"
        @unknown default:
            return "not a Grocery Dude JSON file"
        }
    }
}
