import Foundation
import TextAndFiles

/// A baseline's JSON, written and read by hand in the form Foundation's `JSONEncoder` (sorted
/// keys) writes and its `JSONDecoder` reads: every build before this one wrote baselines that
/// way and reads them that way, and both were most of a new peer's wait on Linux.
extension Baseline {
    /// The baseline as JSON: what `JSONEncoder` with sorted keys writes, numbers in its form
    /// (Swift's shortest text that reads back as the same double, without a trailing `.0`), so
    /// that any build's `JSONDecoder` reads it to the same baseline.
    ///
    /// - Throws: `EncodingError` for a number that is not finite, as `JSONEncoder` does.
    public func jsonData() throws -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(256 + objects.count * 400 + tombstones.count * 150)
        func text(_ text: String) { out.append(contentsOf: text.utf8) }
        func quoted(_ string: String) { JSONText.appendQuoted(string, to: &out) }
        func number(_ value: Double) throws {
            guard value.isFinite else {
                throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "a baseline holds a number that is not finite"))
            }
            var written = value.description
            if written.hasSuffix(".0") { written.removeLast(2) }
            text(written)
        }
        func members<Value>(_ dictionary: [String: Value], _ write: (Value) throws -> Void) rethrows {
            out.append(UInt8(ascii: "{"))
            for (index, key) in dictionary.keys.sorted().enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                quoted(key)
                out.append(UInt8(ascii: ":"))
                try write(dictionary[key]!)
            }
            out.append(UInt8(ascii: "}"))
        }
        func object(_ object: ObjectID) {
            text("{\"entity\":")
            quoted(object.entity)
            text(",\"id\":\"" + object.id.description + "\"}")
        }
        func value(_ value: PropertyValue) throws {
            switch value {
            case .null: text("null")
            case .bool(let bool): text(bool ? "{\"b\":true}" : "{\"b\":false}")
            case .integer(let integer): text("{\"i\":" + String(integer) + "}")
            case .double(let double):
                text("{\"d\":")
                try number(double)
                text("}")
            case .string(let string):
                text("{\"s\":")
                quoted(string)
                text("}")
            case .date(let date):
                text("{\"t\":")
                try number(date.timeIntervalSince1970)
                text("}")
            case .data(let data): text("{\"x\":\"" + data.base64EncodedString() + "\"}")
            case .reference(let id): text("{\"r\":\"" + id.description + "\"}")
            case .blob(let hash):
                text("{\"h\":")
                quoted(hash)
                text("}")
            }
        }
        text("{\"covers\":")
        members(covers) { text(String($0)) }
        text(",\"created\":")
        try number(created.timeIntervalSinceReferenceDate)
        text(",\"objects\":[")
        for (index, entry) in objects.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            text("{\"clocks\":")
            members(entry.clocks) { quoted($0.description) }
            text(",\"object\":")
            object(entry.object)
            text(",\"values\":")
            try members(entry.values, value)
            text("}")
        }
        text("],\"tombstones\":[")
        for (index, tombstone) in tombstones.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            text("{\"clock\":")
            quoted(tombstone.clock.description)
            if let target = tombstone.mergedInto { text(",\"mergedInto\":\"" + target.description + "\"") }
            text(",\"object\":")
            object(tombstone.object)
            text("}")
        }
        text("]}")
        return Data(out)
    }

    /// Reads a baseline's JSON straight from its bytes (``scanned(_:)``); what that does not take
    /// (a key it does not know, a repeated key, anything malformed) is read by `JSONDecoder` as
    /// before, which accepts or refuses it as it always did.
    public init(jsonData data: Data) throws {
        if let baseline = Self.scanned(data) {
            self = baseline
            return
        }
        self = try JSONDecoder().decode(Baseline.self, from: data)
    }

    /// The baseline in `data`, when it is strict JSON in the form `JSONEncoder` writes (keys in
    /// any order); `nil` for anything else. Numbers convert exactly from their text.
    static func scanned(_ data: Data) -> Baseline? {
        JSONScanner.read(data, dialect: .foundation) { scanner in
            var covers: [String: Int64]?
            var created: Double?
            var objects: [Object]?
            var tombstones: [Tombstone]?
            let read = scanner.object { scanner, key in
                switch key {
                case "covers":
                    guard scanner.mayAssign(covers) else { return false }
                    var read: [String: Int64] = [:]
                    guard scanner.object({ scanner, peer in
                        guard let seq = scanner.int64() else { return false }
                        return read.updateValue(seq, forKey: peer) == nil
                    }) else { return false }
                    covers = read
                case "created":
                    guard scanner.mayAssign(created) else { return false }
                    created = scanner.double()
                    return created != nil
                case "objects":
                    guard scanner.mayAssign(objects) else { return false }
                    var read: [Object] = []
                    guard scanner.array({ scanner in
                        guard let object = Object.scanned(&scanner) else { return false }
                        read.append(object)
                        return true
                    }) else { return false }
                    objects = read
                case "tombstones":
                    guard scanner.mayAssign(tombstones) else { return false }
                    var read: [Tombstone] = []
                    guard scanner.array({ scanner in
                        guard let tombstone = Tombstone.scanned(&scanner) else { return false }
                        read.append(tombstone)
                        return true
                    }) else { return false }
                    tombstones = read
                default:
                    return false
                }
                return true
            }
            guard read, let covers, let created, let objects, let tombstones else { return nil }
            return Baseline(covers: covers, created: Date(timeIntervalSinceReferenceDate: created), objects: objects, tombstones: tombstones)
        }
    }
}

extension Baseline.Object {
    static func scanned(_ scanner: inout JSONScanner) -> Self? {
        var object: ObjectID?
        var values: [String: PropertyValue]?
        var clocks: [String: HLC]?
        let read = scanner.object { scanner, key in
            switch key {
            case "object":
                guard scanner.mayAssign(object) else { return false }
                object = scanner.objectID(depth: 3)
                return object != nil
            case "values":
                guard scanner.mayAssign(values) else { return false }
                values = scanner.propertyValues()
                return values != nil
            case "clocks":
                guard scanner.mayAssign(clocks) else { return false }
                var read: [String: HLC] = [:]
                guard scanner.object({ scanner, property in
                    guard let clock = scanner.clockReading() else { return false }
                    return read.updateValue(clock, forKey: property) == nil
                }) else { return false }
                clocks = read
                return true
            default:
                return false
            }
        }
        guard read, let object, let values, let clocks else { return nil }
        return Self(object: object, values: values, clocks: clocks)
    }
}

extension Baseline.Tombstone {
    static func scanned(_ scanner: inout JSONScanner) -> Self? {
        var object: ObjectID?
        var clock: HLC?
        var mergedInto: GlobalID??
        let read = scanner.object { scanner, key in
            switch key {
            case "object":
                guard scanner.mayAssign(object) else { return false }
                object = scanner.objectID(depth: 3)
                return object != nil
            case "clock":
                guard scanner.mayAssign(clock) else { return false }
                clock = scanner.clockReading()
                return clock != nil
            case "mergedInto":
                guard scanner.mayAssign(mergedInto) else { return false }
                if scanner.null() {
                    mergedInto = .some(nil)
                    return true
                }
                guard let target = scanner.globalID() else { return false }
                mergedInto = target
                return true
            default:
                return false
            }
        }
        guard read, let object, let clock else { return nil }
        return Self(object: object, clock: clock, mergedInto: mergedInto ?? nil)
    }
}
