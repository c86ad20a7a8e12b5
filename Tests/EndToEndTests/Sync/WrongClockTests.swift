import Foundation
import TestSupport
import Testing

/// Devices whose wall clocks are wrong by years, as real processes under `faketime`: every
/// device ends with the same data, an edit made after seeing a value wins over it, a clock far
/// ahead drags nobody and is shown, and a clock before 1970 still saves and exports.
@Suite("Devices whose clocks are wrong by years")
struct WrongClockTests {
    let directory = TemporaryDirectory("wrong-clocks")

    func device(_ name: String, clock fakeTime: String? = nil) -> CommandRunner {
        CommandRunner(
            dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData,
            fakeTime: fakeTime)
    }

    /// `item ls --json` on every device, after each has synced: they must all be the same.
    func expectSameItems(_ devices: [CommandRunner], sourceLocation: SourceLocation = #_sourceLocation) throws
        -> [[String: Any]]
    {
        for device in devices + devices { try device.output(["cloud", "sync"]) }
        let listings = try devices.map { try $0.output(["item", "ls", "--json"]) }
        for (device, listing) in zip(devices, listings).dropFirst() {
            #expect(
                listing == listings[0], "\(device.device) holds other data than \(devices[0].device)",
                sourceLocation: sourceLocation)
        }
        return try JSONSerialization.jsonObject(with: Data(listings[0].utf8)) as! [[String: Any]]
    }

    func quantity(of name: String, in items: [[String: Any]]) -> Double? {
        items.first { $0["name"] as? String == name }?["quantity"] as? Double
    }

    func status(_ device: CommandRunner) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(try device.output(["cloud", "status", "--json"]).utf8))
            as! [String: Any]
    }

    /// The devices flagged in `cloud status --json`, by name, with how far ahead.
    func clocksAhead(_ device: CommandRunner) throws -> [String: String] {
        let flagged = try status(device)["clocksAhead"] as? [[String: Any]] ?? []
        return Dictionary(flagged.map { ($0["device"] as? String ?? "?", $0["ahead"] as? String ?? "?") }) { first, _ in
            first
        }
    }

    /// The wall time, in seconds since 1970, of the reading in `device`'s newest published log.
    func newestReading(of device: CommandRunner) throws -> Double {
        let peer = try #require(try status(device)["peerID"] as? String)
        let folder = directory.url.appendingPathComponent("Cloud/default/GroceryDude/v3/epoch-1/logs/\(peer)")
        let newest = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".gdlog") }.max())
        let lines = try String(contentsOf: folder.appendingPathComponent(newest), encoding: .utf8).split(
            separator: "\n")
        let payload = try JSONSerialization.jsonObject(with: Data(lines[2].utf8)) as! [String: Any]
        let reading = try #require(payload["clock"] as? String)
        return try #require(Double(reading.prefix { $0 != "." })) / 1000
    }

    func expectNearNow(_ seconds: Double, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            abs(seconds - Date().timeIntervalSince1970) < 600,
            "\(what) is stamped \(Date(timeIntervalSince1970: seconds)), not now", sourceLocation: sourceLocation)
    }

    @Test func aClockTenYearsAheadDragsNobodyAndEditsMadeAfterSeeingItWin() throws {
        let future = device("future", clock: "+3650d")
        let honest = device("honest")
        let behind = device("behind", clock: "-3650d")
        for device in [future, honest, behind] { try device.output(["cloud", "enable"]) }

        try future.output(["item", "add", "Milk", "--qty", "1"])
        // Seen, then edited: each later edit wins, whatever the editor's clock says.
        try honest.output(["item", "edit", "Milk", "--qty", "2"])
        #expect(quantity(of: "Milk", in: try expectSameItems([future, honest, behind])) == 2)
        try behind.output(["item", "edit", "Milk", "--qty", "3"])
        #expect(quantity(of: "Milk", in: try expectSameItems([future, honest, behind])) == 3)

        // The honest device's clock did not follow the future: its next save is stamped now.
        try honest.output(["item", "add", "Bread"])
        expectNearNow(try newestReading(of: honest), "the honest device's save after seeing the future")
        #expect(try clocksAhead(honest) == ["future": "about 10 years"])
        let text = try honest.output(["cloud", "status"])
        #expect(text.contains("Clocks ahead:") && text.contains("device \"future\""), "\(text)")
        #expect(text.contains("its clock was about 10 years ahead of this device's (log 1 said 20"), "\(text)")
        // From a clock ten years behind, everyone else is ahead: that is what it is told.
        #expect(try clocksAhead(behind) == ["future": "about 20 years", "honest": "about 10 years"])
        #expect(try clocksAhead(future).isEmpty, "a file arriving late is no sign of a wrong clock")

        // A device joining later does not inherit the future either.
        let newcomer = device("newcomer")
        try newcomer.output(["cloud", "enable"])
        try newcomer.output(["item", "add", "Tea"])
        expectNearNow(try newestReading(of: newcomer), "a new device's first save")
        #expect(try clocksAhead(newcomer) == ["future": "about 10 years"])
        let items = try expectSameItems([future, honest, behind, newcomer])
        #expect(items.map { $0["name"] as! String } == ["Bread", "Milk", "Tea"])
    }

    @Test func offlineEditsOnClocksYearsApartConvergeAndTheLaterEditAfterSeeingWins() throws {
        let future = device("future", clock: "+3650d")
        let honest = device("honest")
        let behind = device("behind", clock: "-3650d")
        for device in [future, honest, behind] { try device.output(["cloud", "enable"]) }
        try honest.output(["item", "add", "Tea", "--qty", "1"])
        _ = try expectSameItems([future, honest, behind])

        // All three offline, each edits the same item without seeing the others' edits.
        for device in [future, honest, behind] { try device.output(["cloud", "offline"]) }
        try future.output(["item", "edit", "Tea", "--qty", "10"])
        try honest.output(["item", "edit", "Tea", "--qty", "20", "--note", "green"])
        try behind.output(["item", "edit", "Tea", "--qty", "30", "--unit", "box"])
        for device in [behind, honest, future] { try device.output(["cloud", "online"]) }
        var items = try expectSameItems([behind, future, honest])
        // The concurrent quantities are decided by the readings (the fast clock's is the
        // latest); edits of different properties all stay.
        #expect(quantity(of: "Tea", in: items) == 10)
        #expect(items.first?["note"] as? String == "green")
        #expect(items.first?["unit"] as? String == "box")

        // Having seen 10, the device behind goes offline and edits: its edit wins everywhere.
        try behind.output(["cloud", "offline"])
        try behind.output(["item", "edit", "Tea", "--qty", "31"])
        try future.output(["item", "edit", "Tea", "--note", "from the future"])
        try behind.output(["cloud", "online"])
        items = try expectSameItems([future, honest, behind])
        #expect(quantity(of: "Tea", in: items) == 31)
        #expect(items.first?["note"] as? String == "from the future")

        // A new device joining after all this holds the same.
        let newcomer = device("newcomer")
        try newcomer.output(["cloud", "enable"])
        items = try expectSameItems([newcomer, future, honest, behind])
        #expect(quantity(of: "Tea", in: items) == 31)
    }

    @Test func aDeviceWhoseClockReadsBefore1970SavesExportsAndGoesOnOnceItIsSetRight() throws {
        let old = device("old", clock: "@1969-12-31 23:00:00")
        let honest = device("honest")
        try old.output(["cloud", "enable"])
        try honest.output(["cloud", "enable"])

        try old.output(["item", "add", "Eggs", "--qty", "1"])
        let eggs = try #require(try old.items().first)
        #expect(eggs["modified"] as? String == "1970-01-01T00:00:00.000Z", "dated as early as peers accept")
        let synced = try honest.run(["cloud", "sync"])
        #expect(synced.status == 0, "nothing refused: \(synced.stderr)")
        #expect(quantity(of: "Eggs", in: try honest.items()) == 1)

        try honest.output(["item", "edit", "Eggs", "--qty", "2"])
        try old.output(["item", "edit", "Eggs", "--qty", "3"])
        #expect(quantity(of: "Eggs", in: try expectSameItems([old, honest])) == 3, "edited after seeing 2")
        #expect(
            try clocksAhead(old)["honest"]?.hasSuffix("years") == true, "from 1969, the honest device is decades ahead")

        // Its clock set right, it exports again, and edits go both ways.
        let fixed = old.withClock(nil)
        try fixed.output(["item", "add", "Bread"])
        #expect(try status(fixed)["pendingExport"] as? Int == 0)
        expectNearNow(try newestReading(of: fixed), "the first save once the clock is right")
        try honest.output(["item", "edit", "Eggs", "--qty", "5"])
        let items = try expectSameItems([fixed, honest])
        #expect(items.map { $0["name"] as! String } == ["Bread", "Eggs"])
        #expect(quantity(of: "Eggs", in: items) == 5)
        #expect(try clocksAhead(honest).isEmpty && clocksAhead(fixed).isEmpty)
    }

    @Test func aDeviceWhoseClockReadsPast9999StillWritesWhatOthersAccept() throws {
        let far = device("far", clock: "+3650000d")  // about the year 12000
        let honest = device("honest")
        try far.output(["cloud", "enable"])
        try honest.output(["cloud", "enable"])
        try far.output(["item", "add", "Salt"])
        #expect(try far.items().first?["modified"] as? String == "9999-12-31T23:59:59.000Z")
        let synced = try honest.run(["cloud", "sync"])
        #expect(synced.status == 0, "nothing refused: \(synced.stderr)")
        try honest.output(["item", "edit", "Salt", "--qty", "4"])
        #expect(quantity(of: "Salt", in: try expectSameItems([far, honest])) == 4, "edited after seeing it")
        let flagged = try clocksAhead(honest)
        #expect(flagged["far"]?.hasPrefix("about 79") == true, "\(flagged)")
    }
}
