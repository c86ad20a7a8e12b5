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
                    return scanner.assign(&covers) { $0.members { $0.int64() } }
                case "created":
                    return scanner.assign(&created) { $0.double() }
                case "objects":
                    return scanner.assign(&objects) { $0.list(Object.scanned) }
                case "tombstones":
                    return scanner.assign(&tombstones) { $0.list(Tombstone.scanned) }
                default:
                    return false
                }
            }
            guard read, let covers, let created, let objects, let tombstones else { return nil }
            return Baseline(
                covers: covers, created: Date(timeIntervalSinceReferenceDate: created), objects: objects,
                tombstones: tombstones)
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
                return scanner.assign(&object) { $0.objectID(depth: 3) }
            case "values":
                return scanner.assign(&values) { $0.propertyValues() }
            case "clocks":
                return scanner.assign(&clocks) { $0.members { $0.clockReading() } }
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
                return scanner.assign(&object) { $0.objectID(depth: 3) }
            case "clock":
                return scanner.assign(&clock) { $0.clockReading() }
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
