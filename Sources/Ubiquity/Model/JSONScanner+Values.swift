import Foundation

/// The engine's small values as ``JSONScanner`` reads them, in the form their `Codable`
/// conformances write (and the hand-written writers copy): a property value as one tag, an ID as
/// its text, an object reference as `{"entity":…,"id":…}`, a clock reading as its text.
extension JSONScanner {
    /// Whether a key may take a value it already has: records keep the last (as ``JSONValue``'s
    /// dictionaries do); Foundation's reader is left to decide what it does with a repeated key.
    func mayAssign<T>(_ existing: T?) -> Bool { dialect == .records || existing == nil }

    /// An array whose every element `read` reads; `nil` when one is not read or it is no array.
    mutating func list<T>(_ read: (inout JSONScanner) -> T?) -> [T]? {
        var elements: [T] = []
        guard
            array({ scanner in
                guard let element = read(&scanner) else { return false }
                elements.append(element)
                return true
            })
        else { return nil }
        return elements
    }

    /// An object whose every member's value `read` reads, by member name; `nil` when one is not
    /// read, a name comes twice, or it is no object.
    mutating func members<T>(_ read: (inout JSONScanner) -> T?) -> [String: T]? {
        var members: [String: T] = [:]
        guard
            object({ scanner, name in
                guard let value = read(&scanner) else { return false }
                return members.updateValue(value, forKey: name) == nil
            })
        else { return nil }
        return members
    }

    /// Reads a member's value into `slot` with `read`, when the member may be assigned
    /// (``mayAssign(_:)``); whether a value was read.
    mutating func assign<T>(_ slot: inout T?, _ read: (inout JSONScanner) -> T?) -> Bool {
        guard mayAssign(slot) else { return false }
        slot = read(&self)
        return slot != nil
    }

    /// A property value: `null` or exactly one tag. A second tag, or anything else, is left to
    /// the slower reader.
    ///
    /// The tag is read as its one byte, not made a string and compared with the tags' texts
    /// (every value of every imported log has one). A tag written otherwise (an escape for
    /// its letter) is left to the slower reader, which reads it to the same value.
    mutating func propertyValue() -> PropertyValue? {
        if null() { return .null }
        guard take(UInt8(ascii: "{")), let tag = plainStringBytes(), tag.count == 1, take(UInt8(ascii: ":")) else {
            return nil
        }
        let value: PropertyValue
        switch tag[0] {
        case UInt8(ascii: "s"):
            guard let text = string() else { return nil }
            value = .string(text)
        case UInt8(ascii: "d"):
            guard let number = double() else { return nil }
            value = .double(number)
        case UInt8(ascii: "b"):
            guard let bool = bool() else { return nil }
            value = .bool(bool)
        case UInt8(ascii: "i"):
            guard let integer = int64() else { return nil }
            value = .integer(integer)
        case UInt8(ascii: "t"):
            guard let seconds = double() else { return nil }
            value = .date(Date(timeIntervalSince1970: seconds))
        case UInt8(ascii: "r"):
            guard let id = globalID() else { return nil }
            value = .reference(id)
        case UInt8(ascii: "x"):
            guard let text = string(), let bytes = Data(base64Encoded: text) else { return nil }
            value = .data(bytes)
        case UInt8(ascii: "h"):
            guard let hash = string(), hash.count == 64, hash.allSatisfy(\.isHexDigit) else { return nil }
            value = .blob(hash)
        default: return nil
        }
        return take(UInt8(ascii: "}")) ? value : nil
    }

    /// Property values by name, as an object of them.
    mutating func propertyValues() -> [String: PropertyValue]? {
        var values = [String: PropertyValue](minimumCapacity: propertyCountHint)
        let read = object { scanner, name in
            guard let value = scanner.propertyValue() else { return false }
            return values.updateValue(value, forKey: name) == nil || scanner.dialect == .records
        }
        propertyCountHint = min(values.count, Self.largestRoom)
        return read ? values : nil
    }

    mutating func globalID() -> GlobalID? {
        string().flatMap(GlobalID.init)
    }

    /// A clock reading: from its bytes when it is in the form readings are written in, else
    /// from its text (``HLC/init(_:)``, which decides what else is one).
    mutating func clockReading() -> HLC? {
        let start = offset
        if let bytes = plainStringBytes(), let reading = HLC(asciiBytes: bytes) { return reading }
        offset = start
        return string().flatMap { HLC($0) }
    }

    /// An object reference whose members stand `depth + 1` levels into the document.
    mutating func objectID(depth: Int) -> ObjectID? {
        var entity: String?
        var id: GlobalID?
        let read = object { scanner, key in
            switch key {
            case "entity":
                guard scanner.mayAssign(entity), let text = scanner.string() else { return false }
                entity = text
            case "id":
                guard scanner.mayAssign(id), let value = scanner.globalID() else { return false }
                id = value
            default:
                return scanner.skipUnknown(depth: depth + 1)
            }
            return true
        }
        guard read, let entity, let id else { return nil }
        return ObjectID(entity: entity, id: id)
    }
}
