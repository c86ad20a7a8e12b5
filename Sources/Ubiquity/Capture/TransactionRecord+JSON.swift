import Foundation
import TextAndFiles

extension TransactionRecord {
    /// The record as JSON, written by hand in exactly the form its `Codable` conformance reads
    /// (keys sorted). Foundation's encoder was the largest cost of a save; this is what the
    /// outbox and the logs store. Written as bytes into one buffer: joining strings (a string
    /// for every value, every change and every list) was a tenth of a save.
    public func jsonData() -> Data {
        var out = JSONBytes()
        out.reserve(256 + 160 * (inserted.count + updated.count + deleted.count + merged.count))
        out.raw("{\"author\":")
        out.quoted(author)
        if let clock {
            out.raw(",\"clock\":")
            out.quoted(clock.description)
        }
        out.raw(",\"deleted\":")
        out.list(deleted) { out, object in out.object(object) }
        out.raw(",\"inserted\":")
        out.list(inserted) { out, change in out.change(change) }
        // Only when there are merges: records without them read as before, by every build.
        if !merged.isEmpty {
            out.raw(",\"merged\":")
            out.list(merged) { out, merge in out.merge(merge) }
        }
        out.raw(",\"timestamp\":")
        out.number(timestamp.timeIntervalSinceReferenceDate)
        out.raw(",\"transactionID\":")
        out.quoted(transactionID.description)
        out.raw(",\"updated\":")
        out.list(updated) { out, change in out.change(change) }
        out.raw("}")
        return Data(out.bytes)
    }

    /// Reads the JSON of ``jsonData()`` (or of the `Codable` encoder, keys in any order) with a
    /// parser of our own: `JSONDecoder` was most of the cost of importing a log.
    ///
    /// Read straight from the bytes (``scanned(_:)``); when that does not take them, through a
    /// ``JSONValue`` tree, which alone says what is wrong.
    ///
    /// - Throws: ``RecordJSONError`` when the bytes are not a transaction record.
    public init(jsonData data: Data) throws {
        if let record = Self.scanned(data) {
            self = record
            return
        }
        try self.init(parsing: data)
    }

    /// Reads the record through a ``JSONValue`` tree: what the reading straight from the bytes
    /// falls back on, and the source of every message about a malformed record.
    init(parsing data: Data) throws {
        let root: JSONValue
        do {
            root = try JSONValue.parse(data)
        } catch let error as JSONValue.ParseError {
            throw RecordJSONError.malformed("\(error.reason) at byte \(error.offset)")
        }
        guard case .object(let fields) = root else { throw RecordJSONError.malformed("not a JSON object") }
        func string(_ value: JSONValue?, _ what: String) throws -> String {
            guard case .string(let text)? = value else { throw RecordJSONError.malformed("\(what) is not a string") }
            return text
        }
        func double(_ value: JSONValue?, _ what: String) throws -> Double {
            guard case .number(let text)? = value, let number = Double(text), number.isFinite else {
                throw RecordJSONError.malformed("\(what) is not a number")
            }
            return number
        }
        func id(_ value: JSONValue?) throws -> GlobalID {
            guard let id = GlobalID(try string(value, "an id")) else {
                throw RecordJSONError.malformed("an id is not a UUID")
            }
            return id
        }
        func object(_ value: JSONValue?) throws -> ObjectID {
            guard case .object(let fields)? = value else {
                throw RecordJSONError.malformed("an object reference is not an object")
            }
            return ObjectID(entity: try string(fields["entity"], "an entity"), id: try id(fields["id"]))
        }
        func property(_ value: JSONValue) throws -> PropertyValue {
            if case .null = value { return .null }
            guard case .object(let tagged) = value, tagged.count == 1, let (tag, content) = tagged.first else {
                throw RecordJSONError.malformed("a property value has exactly one tag")
            }
            switch tag {
            case "b":
                guard case .bool(let bool) = content else {
                    throw RecordJSONError.malformed("a bool is not true or false")
                }
                return .bool(bool)
            case "i":
                guard case .number(let text) = content, let integer = Int64(text) else {
                    throw RecordJSONError.malformed("an integer is not an integer")
                }
                return .integer(integer)
            case "d": return .double(try double(content, "a double"))
            case "s": return .string(try string(content, "a string"))
            case "t": return .date(Date(timeIntervalSince1970: try double(content, "a date")))
            case "x":
                guard let bytes = Data(base64Encoded: try string(content, "data")) else {
                    throw RecordJSONError.malformed("bad base64")
                }
                return .data(bytes)
            case "r": return .reference(try id(content))
            case "h":
                let hash = try string(content, "a blob hash")
                guard hash.count == 64, hash.allSatisfy(\.isHexDigit) else {
                    throw RecordJSONError.malformed("not a SHA-256")
                }
                return .blob(hash)
            default: throw RecordJSONError.malformed("unknown value tag \(tag)")
            }
        }
        func changes(_ value: JSONValue?) throws -> [ObjectChange] {
            guard case .array(let list)? = value else {
                throw RecordJSONError.malformed("a change list is not an array")
            }
            return try list.map { item in
                guard case .object(let change) = item, case .object(let values)? = change["values"] else {
                    throw RecordJSONError.malformed("a change has no values")
                }
                var readings: [String: HLC]?
                if let carried = change["readings"] {
                    guard case .object(let fields) = carried else {
                        throw RecordJSONError.malformed("a change's readings are not an object")
                    }
                    readings = try fields.mapValues { value in
                        guard let found = try reading(value) else {
                            throw RecordJSONError.malformed("a carried reading is null")
                        }
                        return found
                    }
                }
                return ObjectChange(
                    object: try object(change["object"]), values: try values.mapValues(property), readings: readings)
            }
        }
        func reading(_ value: JSONValue?) throws -> HLC? {
            guard let value, value != .null else { return nil }
            guard let reading = HLC(try string(value, "a clock reading")) else {
                throw RecordJSONError.malformed("a bad clock reading")
            }
            return reading
        }
        func merges(_ value: JSONValue?) throws -> [ObjectMerge] {
            guard let value else { return [] }  // written before merges existed
            guard case .array(let list) = value else {
                throw RecordJSONError.malformed("the merge list is not an array")
            }
            return try list.map { item in
                guard case .object(let merge) = item else {
                    throw RecordJSONError.malformed("a merge is not an object")
                }
                var chosen: [String: PropertyValue] = [:]
                if let values = merge["chosen"] {
                    guard case .object(let fields) = values else {
                        throw RecordJSONError.malformed("a merge's chosen values are not an object")
                    }
                    chosen = try fields.mapValues(property)
                }
                return ObjectMerge(
                    object: try object(merge["object"]), into: try id(merge["into"]), chosen: chosen,
                    reading: try reading(merge["reading"]))
            }
        }
        guard case .array(let deleted)? = fields["deleted"] else { throw RecordJSONError.malformed("no deleted list") }
        let clock = try reading(fields["clock"])
        self.init(
            transactionID: try id(fields["transactionID"]),
            timestamp: Date(timeIntervalSinceReferenceDate: try double(fields["timestamp"], "the timestamp")),
            author: try string(fields["author"], "the author"),
            inserted: try changes(fields["inserted"]), updated: try changes(fields["updated"]),
            deleted: try deleted.map(object), merged: try merges(fields["merged"]), clock: clock)
    }
}

/// The bytes of a record's JSON as ``TransactionRecord/jsonData()`` writes them.
private struct JSONBytes {
    private(set) var bytes: [UInt8] = []

    mutating func reserve(_ count: Int) { bytes.reserveCapacity(count) }

    /// Text written as it is: punctuation and keys.
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func quoted(_ text: String) { JSONText.appendQuoted(text, to: &bytes) }

    mutating func list<Element>(_ elements: [Element], _ write: (inout JSONBytes, Element) -> Void) {
        raw("[")
        for (index, element) in elements.enumerated() {
            if index > 0 { raw(",") }
            write(&self, element)
        }
        raw("]")
    }

    mutating func object(_ object: ObjectID) {
        raw("{\"entity\":")
        quoted(object.entity)
        raw(",\"id\":")
        quoted(object.id.description)
        raw("}")
    }

    mutating func change(_ change: ObjectChange) {
        raw("{\"object\":")
        object(change.object)
        if let readings = change.readings, !readings.isEmpty {
            raw(",\"readings\":{")
            for (index, pair) in readings.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { raw(",") }
                quoted(pair.key)
                raw(":")
                quoted(pair.value.description)
            }
            raw("}")
        }
        raw(",\"values\":")
        values(change.values)
        raw("}")
    }

    mutating func merge(_ merge: ObjectMerge) {
        raw("{")
        if !merge.chosen.isEmpty {
            raw("\"chosen\":")
            values(merge.chosen)
            raw(",")
        }
        raw("\"into\":")
        quoted(merge.into.description)
        raw(",\"object\":")
        object(merge.object)
        if let reading = merge.reading {
            raw(",\"reading\":")
            quoted(reading.description)
        }
        raw("}")
    }

    /// Values by property name, names sorted.
    mutating func values(_ values: [String: PropertyValue]) {
        raw("{")
        // Sorted as pairs: no lookup of each name again.
        for (index, pair) in values.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { raw(",") }
            quoted(pair.key)
            raw(":")
            value(pair.value)
        }
        raw("}")
    }

    mutating func value(_ value: PropertyValue) {
        switch value {
        case .null: raw("null")
        case .bool(let bool): raw(bool ? "{\"b\":true}" : "{\"b\":false}")
        case .integer(let integer):
            raw("{\"i\":")
            text(String(integer))
            raw("}")
        case .double(let double):
            raw("{\"d\":")
            number(double)
            raw("}")
        case .string(let string):
            raw("{\"s\":")
            quoted(string)
            raw("}")
        case .date(let date):
            raw("{\"t\":")
            number(date.timeIntervalSince1970)
            raw("}")
        case .data(let data):
            raw("{\"x\":\"")
            text(data.base64EncodedString())
            raw("\"}")
        case .reference(let id):
            raw("{\"r\":\"")
            text(id.description)
            raw("\"}")
        case .blob(let hash):
            raw("{\"h\":\"")
            text(hash)
            raw("\"}")
        }
    }

    /// Swift's shortest text that reads back as the same Double; finite values only reach here
    /// (validation refuses the others), but they are written as 0 rather than invalid JSON.
    mutating func number(_ value: Double) {
        guard value.isFinite else { return raw("0") }
        if value == value.rounded(), abs(value) < 1e15 { return text(String(Int64(value))) }
        text(value.description)
    }
}

/// Why bytes are not a transaction record.
public enum RecordJSONError: Error, Equatable, CustomStringConvertible {
    case malformed(String)

    public var description: String {
        switch self {
        case .malformed(let reason): "not a transaction record: \(reason)"
        }
    }
}
