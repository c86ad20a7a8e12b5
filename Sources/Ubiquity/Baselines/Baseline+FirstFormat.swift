import Foundation

/// A baseline's payload in the first format (magic `GDBASE 1`), which builds before the compact
/// one wrote: the JSON of Foundation's `JSONEncoder` with sorted keys. Still read, from files
/// those builds left in the cloud folder; no longer written.
extension Baseline {
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
