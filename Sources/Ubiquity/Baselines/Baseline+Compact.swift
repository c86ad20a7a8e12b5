import Foundation
import TextAndFiles

/// A baseline's payload as this build writes it (magic `GDBASE 2`): names and clock readings
/// written once in tables, objects as arrays that point into them.
///
/// ```
/// {"covers":{"<peer>":12},"created":785000000.5,
///  "entities":[["Item",["listed","name","quantity"]]],
///  "peers":["<peer>"],
///  "readings":[1764000000000,0,0, 3,1,0, …],
///  "objects":[["<id>",0,[1,{"s":"Milk"},0, 2,{"d":2},1]], …],
///  "tombstones":[["<id>",0,1], ["<id>",0,1,"<merged into id>"], …]}
/// ```
/// - `entities`: each entity's name and the names of its properties that the baseline holds;
///   an object gives its entity, and each of its properties, as an index into them.
/// - `readings`: every clock reading in the baseline once, ascending, three numbers each: the
///   wall time's difference from the reading before (the first's is from 0; never negative,
///   and no sum past the last millisecond of 9999), the counter, and the reading's peer as an
///   index into `peers`.
/// - an object: its ID, its entity, then for each property its index, its value (tagged as
///   in records), and its reading's index or `null` (a value stored before readings existed).
/// - a tombstone: ID, entity, reading, and the ID it was merged into when it was.
///
/// A reading in the first format was 60 bytes of text repeated for every property; a save
/// gives all its changes one reading, so here most properties point at a shared one.
/// The members come in the order above; anything else is refused as unreadable, and what is
/// read goes through the same checks as the first format's (names, values, readings).
extension Baseline {
    public func compactData() throws -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(256 + objects.count * 120 + tombstones.count * 60)
        func text(_ text: String) { out.append(contentsOf: text.utf8) }
        func quoted(_ string: String) { JSONText.appendQuoted(string, to: &out) }
        func comma() { out.append(UInt8(ascii: ",")) }

        // The tables: entities with their properties, peers, readings.
        var propertyNames: [String: Set<String>] = [:]
        var readingSet = Set<HLC>()
        for object in objects {
            propertyNames[object.object.entity, default: []].formUnion(object.values.keys)
            readingSet.formUnion(object.clocks.values)
        }
        for tombstone in tombstones {
            if propertyNames[tombstone.object.entity] == nil { propertyNames[tombstone.object.entity] = [] }
            readingSet.insert(tombstone.clock)
        }
        let entities = propertyNames.keys.sorted()
        let entityIndex = Dictionary(uniqueKeysWithValues: entities.enumerated().map { ($1, $0) })
        let properties = entities.map { propertyNames[$0]!.sorted() }
        let propertyIndex = properties.map { Dictionary(uniqueKeysWithValues: $0.enumerated().map { ($1, $0) }) }
        let readings = readingSet.sorted()
        let readingIndex = Dictionary(uniqueKeysWithValues: readings.enumerated().map { ($1, $0) })
        let peers = Set(readings.map(\.peer)).sorted()
        let peerIndex = Dictionary(uniqueKeysWithValues: peers.enumerated().map { ($1, $0) })

        text("{\"covers\":{")
        for (index, peer) in covers.keys.sorted().enumerated() {
            if index > 0 { comma() }
            quoted(peer)
            text(":" + String(covers[peer]!))
        }
        text("},\"created\":")
        try Self.writeNumber(created.timeIntervalSinceReferenceDate, to: &out)
        text(",\"entities\":[")
        for (index, entity) in entities.enumerated() {
            if index > 0 { comma() }
            text("[")
            quoted(entity)
            text(",[")
            for (index, property) in properties[index].enumerated() {
                if index > 0 { comma() }
                quoted(property)
            }
            text("]]")
        }
        text("],\"peers\":[")
        for (index, peer) in peers.enumerated() {
            if index > 0 { comma() }
            quoted(peer)
        }
        text("],\"readings\":[")
        var wall: Int64 = 0
        for (index, reading) in readings.enumerated() {
            if index > 0 { comma() }
            // Ascending: the difference is never negative. A store holds only readings from 1970
            // to 9999; one that held others would throw here rather than trap.
            let (difference, overflow) = reading.wall.subtractingReportingOverflow(wall)
            guard !overflow else {
                throw EncodingError.invalidValue(
                    reading.wall, .init(codingPath: [], debugDescription: "a baseline holds a reading out of range"))
            }
            text(String(difference) + "," + String(reading.counter) + "," + String(peerIndex[reading.peer]!))
            wall = reading.wall
        }
        text("],\"objects\":[")
        for (index, object) in objects.enumerated() {
            if index > 0 { comma() }
            let entity = entityIndex[object.object.entity]!
            text("[\"" + object.object.id.description + "\"," + String(entity) + ",[")
            let named = propertyIndex[entity]
            for (index, property) in object.values.keys.sorted().enumerated() {
                if index > 0 { comma() }
                text(String(named[property]!) + ",")
                try Self.writeValue(object.values[property]!, to: &out)
                text(",")
                text(object.clocks[property].map { String(readingIndex[$0]!) } ?? "null")
            }
            text("]]")
        }
        text("],\"tombstones\":[")
        for (index, tombstone) in tombstones.enumerated() {
            if index > 0 { comma() }
            text(
                "[\"" + tombstone.object.id.description + "\"," + String(entityIndex[tombstone.object.entity]!) + ","
                    + String(readingIndex[tombstone.clock]!))
            if let target = tombstone.mergedInto { text(",\"" + target.description + "\"") }
            text("]")
        }
        text("]}")
        return Data(out)
    }

    /// Reads the payload ``compactData()`` writes; `nil` for anything that is not in that form,
    /// strict JSON (names, values and readings are checked afterwards like any baseline's).
    init?(compactData data: Data) {
        guard let baseline = JSONScanner.read(data, dialect: .foundation, { scanner in Self.scannedCompact(&scanner) })
        else {
            return nil
        }
        self = baseline
    }

    private static func scannedCompact(_ scanner: inout JSONScanner) -> Baseline? {
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        // covers
        guard scanner.key("covers") else { return nil }
        var covers: [String: Int64] = [:]
        guard
            scanner.object({ scanner, peer in
                guard let seq = scanner.int64() else { return false }
                return covers.updateValue(seq, forKey: peer) == nil
            })
        else { return nil }
        // created
        guard scanner.take(UInt8(ascii: ",")), scanner.key("created"), let created = scanner.double() else {
            return nil
        }
        // entities
        var entities: [(name: String, properties: [String])] = []
        guard scanner.take(UInt8(ascii: ",")), scanner.key("entities"),
            scanner.array({ scanner in
                guard scanner.take(UInt8(ascii: "[")), let name = scanner.string(), scanner.take(UInt8(ascii: ","))
                else { return false }
                var properties: [String] = []
                guard
                    scanner.array({ scanner in
                        guard let property = scanner.string() else { return false }
                        properties.append(property)
                        return true
                    }), scanner.take(UInt8(ascii: "]"))
                else { return false }
                entities.append((name, properties))
                return true
            })
        else { return nil }
        // peers
        var peers: [String] = []
        guard scanner.take(UInt8(ascii: ",")), scanner.key("peers"),
            scanner.array({ scanner in
                guard let peer = scanner.string() else { return false }
                peers.append(peer)
                return true
            })
        else { return nil }
        // readings: triples of wall difference, counter, peer index, read as they come
        var readings: [HLC] = []
        var triple: [Int64] = []
        triple.reserveCapacity(3)
        var wall: Int64 = 0
        guard scanner.take(UInt8(ascii: ",")), scanner.key("readings"),
            scanner.array({ scanner in
                guard let number = scanner.int64() else { return false }
                triple.append(number)
                guard triple.count == 3 else { return true }
                defer { triple.removeAll(keepingCapacity: true) }
                // Ascending as written, and no later than any reading may be: the sum never overflows.
                guard triple[0] >= 0, triple[0] <= HLC.maximumWall - wall, let counter = Int32(exactly: triple[1]),
                    let peer = Int(exactly: triple[2]), peers.indices.contains(peer)
                else { return false }
                wall += triple[0]
                readings.append(HLC(wall: wall, counter: counter, peer: peers[peer]))
                return true
            }), triple.isEmpty
        else { return nil }
        /// An index into a table of `count`.
        func index(_ scanner: inout JSONScanner, below count: Int) -> Int? {
            guard let number = scanner.int64(), number >= 0, number < count else { return nil }
            return Int(number)
        }
        // objects
        var objects: [Object] = []
        guard scanner.take(UInt8(ascii: ",")), scanner.key("objects"),
            scanner.array({ scanner in
                guard scanner.take(UInt8(ascii: "[")), let id = scanner.globalID(), scanner.take(UInt8(ascii: ",")),
                    let entity = index(&scanner, below: entities.count), scanner.take(UInt8(ascii: ","))
                else { return false }
                let names = entities[entity].properties
                // Room for every property the entity lists (a hostile file's thousands: a few dozen),
                // not grown as they come: growing was a sixth of reading a baseline.
                let room = min(names.count, JSONScanner.largestRoom)
                var values = [String: PropertyValue](minimumCapacity: room)
                var clocks = [String: HLC](minimumCapacity: room)
                var expecting = 0  // 0: a property's index, 1: its value, 2: its reading
                var property = ""
                guard
                    scanner.array({ scanner in
                        defer { expecting = (expecting + 1) % 3 }
                        switch expecting {
                        case 0:
                            guard let named = index(&scanner, below: names.count), values[names[named]] == nil else {
                                return false
                            }
                            property = names[named]
                            return true
                        case 1:
                            guard let value = scanner.propertyValue() else { return false }
                            values[property] = value
                            return true
                        default:
                            if scanner.null() { return true }
                            guard let reading = index(&scanner, below: readings.count) else { return false }
                            clocks[property] = readings[reading]
                            return true
                        }
                    }), expecting == 0, scanner.take(UInt8(ascii: "]"))
                else { return false }
                objects.append(
                    Object(object: ObjectID(entity: entities[entity].name, id: id), values: values, clocks: clocks))
                return true
            })
        else { return nil }
        // tombstones
        var tombstones: [Tombstone] = []
        guard scanner.take(UInt8(ascii: ",")), scanner.key("tombstones"),
            scanner.array({ scanner in
                guard scanner.take(UInt8(ascii: "[")), let id = scanner.globalID(), scanner.take(UInt8(ascii: ",")),
                    let entity = index(&scanner, below: entities.count), scanner.take(UInt8(ascii: ",")),
                    let reading = index(&scanner, below: readings.count)
                else { return false }
                var target: GlobalID?
                if scanner.take(UInt8(ascii: ",")) {
                    guard let id = scanner.globalID() else { return false }
                    target = id
                }
                guard scanner.take(UInt8(ascii: "]")) else { return false }
                tombstones.append(
                    Tombstone(
                        object: ObjectID(entity: entities[entity].name, id: id), clock: readings[reading],
                        mergedInto: target))
                return true
            })
        else { return nil }
        guard scanner.take(UInt8(ascii: "}")) else { return nil }
        return Baseline(
            covers: covers, created: Date(timeIntervalSinceReferenceDate: created), objects: objects,
            tombstones: tombstones)
    }

    // MARK: - Values, as records and the first format write them

    /// A number as `JSONEncoder` writes it: Swift's shortest text that reads back as the same
    /// double, without a trailing `.0`.
    ///
    /// - Throws: `EncodingError` for a number that is not finite, as `JSONEncoder` does.
    static func writeNumber(_ value: Double, to out: inout [UInt8]) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: [], debugDescription: "a baseline holds a number that is not finite"))
        }
        var written = value.description
        if written.hasSuffix(".0") { written.removeLast(2) }
        out.append(contentsOf: written.utf8)
    }

    /// A property value as its one tag: `{"s":"Milk"}`, `{"d":2}`, `null`.
    static func writeValue(_ value: PropertyValue, to out: inout [UInt8]) throws {
        func text(_ text: String) { out.append(contentsOf: text.utf8) }
        switch value {
        case .null: text("null")
        case .bool(let bool): text(bool ? "{\"b\":true}" : "{\"b\":false}")
        case .integer(let integer): text("{\"i\":" + String(integer) + "}")
        case .double(let double):
            text("{\"d\":")
            try writeNumber(double, to: &out)
            text("}")
        case .string(let string):
            text("{\"s\":")
            JSONText.appendQuoted(string, to: &out)
            text("}")
        case .date(let date):
            text("{\"t\":")
            try writeNumber(date.timeIntervalSince1970, to: &out)
            text("}")
        case .data(let data): text("{\"x\":\"" + data.base64EncodedString() + "\"}")
        case .reference(let id): text("{\"r\":\"" + id.description + "\"}")
        case .blob(let hash):
            text("{\"h\":")
            JSONText.appendQuoted(hash, to: &out)
            text("}")
        }
    }
}

extension JSONScanner {
    /// An object's key, if it is `expected`, and the colon after it.
    mutating func key(_ expected: String) -> Bool {
        string() == expected && take(UInt8(ascii: ":"))
    }
}
