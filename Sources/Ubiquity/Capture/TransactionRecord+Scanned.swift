import Foundation

/// A transaction record read straight from its JSON bytes by ``JSONScanner``: the fast way of
/// ``TransactionRecord/init(jsonData:)``. Building a ``JSONValue`` tree first was most of reading
/// a log (every property value a dictionary of one key).
///
/// It reads what the tree-based reading reads, to the same record: keys in any order (the
/// `Codable` encoder's form too), unknown keys parsed and dropped, a repeated key's last value
/// kept. On anything else it answers `nil`, and the tree-based reading runs from the start: the
/// one place that says why bytes are not a record.
extension TransactionRecord {
    static func scanned(_ data: Data) -> TransactionRecord? {
        JSONScanner.read(data, dialect: .records) { scanner in scanned(&scanner) }
    }

    // Depths, as the tree-based reading counts them: the record is 0, its members 1, the items
    // of its lists 2, their members 3, the members of a change's object reference 4.
    private static func scanned(_ scanner: inout JSONScanner) -> TransactionRecord? {
        var transactionID: GlobalID?
        var timestamp: Double?
        var author: String?
        var inserted: [ObjectChange]?
        var updated: [ObjectChange]?
        var deleted: [ObjectID]?
        var merged: [ObjectMerge] = []
        var clock: HLC?
        let read = scanner.object { scanner, key in
            switch key {
            case "author":
                author = scanner.string()
                return author != nil
            case "clock":
                if scanner.null() {
                    clock = nil
                    return true
                }
                clock = scanner.clockReading()
                return clock != nil
            case "deleted":
                var list: [ObjectID] = []
                guard
                    scanner.array({ scanner in
                        guard let object = scanner.objectID(depth: 2) else { return false }
                        list.append(object)
                        return true
                    })
                else { return false }
                deleted = list
                return true
            case "inserted":
                inserted = changes(&scanner)
                return inserted != nil
            case "updated":
                updated = changes(&scanner)
                return updated != nil
            case "merged":
                guard let list = merges(&scanner) else { return false }
                merged = list
                return true
            case "timestamp":
                timestamp = scanner.double()
                return timestamp != nil
            case "transactionID":
                transactionID = scanner.globalID()
                return transactionID != nil
            default:
                return scanner.skipUnknown(depth: 1)
            }
        }
        guard read, let transactionID, let timestamp, let author, let inserted, let updated, let deleted else {
            return nil
        }
        return TransactionRecord(
            transactionID: transactionID, timestamp: Date(timeIntervalSinceReferenceDate: timestamp),
            author: author, inserted: inserted, updated: updated, deleted: deleted, merged: merged, clock: clock)
    }

    private static func changes(_ scanner: inout JSONScanner) -> [ObjectChange]? {
        var list: [ObjectChange] = []
        let read = scanner.array { scanner in
            var object: ObjectID?
            var values: [String: PropertyValue]?
            var readings: [String: HLC]?
            guard
                scanner.object({ scanner, key in
                    switch key {
                    case "object":
                        object = scanner.objectID(depth: 3)
                        return object != nil
                    case "values":
                        values = scanner.propertyValues()
                        return values != nil
                    case "readings":
                        var carried: [String: HLC] = [:]
                        guard
                            scanner.object({ scanner, property in
                                guard let reading = scanner.clockReading() else { return false }
                                carried[property] = reading
                                return true
                            })
                        else { return false }
                        readings = carried
                        return true
                    default:
                        return scanner.skipUnknown(depth: 3)
                    }
                }), let object, let values
            else { return false }
            list.append(ObjectChange(object: object, values: values, readings: readings))
            return true
        }
        return read ? list : nil
    }

    private static func merges(_ scanner: inout JSONScanner) -> [ObjectMerge]? {
        var list: [ObjectMerge] = []
        let read = scanner.array { scanner in
            var object: ObjectID?
            var into: GlobalID?
            var chosen: [String: PropertyValue] = [:]
            var reading: HLC?
            guard
                scanner.object({ scanner, key in
                    switch key {
                    case "object":
                        object = scanner.objectID(depth: 3)
                        return object != nil
                    case "into":
                        into = scanner.globalID()
                        return into != nil
                    case "chosen":
                        guard let values = scanner.propertyValues() else { return false }
                        chosen = values
                        return true
                    case "reading":
                        if scanner.null() {
                            reading = nil
                            return true
                        }
                        reading = scanner.clockReading()
                        return reading != nil
                    default:
                        return scanner.skipUnknown(depth: 3)
                    }
                }), let object, let into
            else { return false }
            list.append(ObjectMerge(object: object, into: into, chosen: chosen, reading: reading))
            return true
        }
        return read ? list : nil
    }
}
