import Foundation
import TestSupport
import Testing

/// Real processes: a device that left stops costing commands, and its folder is still read
/// when it changes — a new log, or a chmod that makes it unreadable.
@Suite("Departed devices, from the command line")
struct DepartedPeersCommandTests {
    let directory = TemporaryDirectory("departed-cli")

    /// Tests run as root, whom permissions do not stop: the commands then run as user nobody
    /// (through `setpriv`), in a folder nobody owns.
    static let asNobody = geteuid() == 0

    init() throws {
        if Self.asNobody {
            #expect(chown(directory.path, 65534, 65534) == 0)
        }
    }

    /// The environment of every command: no default data, and listings trusted as soon as the
    /// folder's times are older than the listing (the default window, two seconds, guards
    /// against changes in the same tick of a coarse file system clock; these changes are whole
    /// commands apart), so that the test need not wait for folders to age.
    static let environment = CommandRunner.withoutDefaultData.merging([
        "GROCERY_DUDE_LISTING_TRUST_SECONDS": "0"
    ]) { _, new in new }

    /// Runs `grocery-dude --data-dir … --device <device> <arguments>`, as user nobody when root.
    func run(_ device: String, _ arguments: [String]) throws -> CommandResult {
        try CommandRunner(
            dataDirectory: directory.path, device: device, environment: Self.environment,
            user: Self.asNobody ? 65534 : nil
        ).run(arguments)
    }

    @discardableResult
    func ok(_ device: String, _ arguments: [String]) throws -> String {
        let result = try run(device, arguments)
        #expect(result.status == 0, "\(device) \(arguments): \(result.stderr)")
        return result.stdout
    }

    /// What the device's last import said about the peer folders it listed.
    func lastListing(_ device: String) throws -> String? {
        let log = try String(contentsOfFile: directory.path + "/devices/\(device)/grocery-dude.log", encoding: .utf8)
        return log.split(separator: "\n").last { $0.contains("peer folders") }.map(String.init)
    }

    /// Checks that a command on `device` lists no peer folder: none changed since it last looked.
    func expectNothingListed(_ device: String) throws {
        try ok(device, ["--log-level", "debug", "item", "ls"])
        let listing = try lastListing(device) ?? ""
        #expect(listing.contains("listed 0 of"), "\(listing)")
    }

    @Test func aDepartedDevicesFolderCostsAStatAndIsReadAgainWhenItChanges() throws {
        if Self.asNobody { try #require(FileManager.default.isExecutableFile(atPath: CommandRunner.setpriv)) }
        try ok("kitchen", ["cloud", "enable"])
        try ok("phone", ["cloud", "enable"])
        try ok("phone", ["item", "add", "Milk"])
        let logs = directory.url.appendingPathComponent("Cloud/default/GroceryDude/v3/epoch-1/logs")
        let phoneFolder = try #require(try FileManager.default.contentsOfDirectory(atPath: logs.path).first)
        #expect(try ok("kitchen", ["item", "ls"]).contains("Milk"))
        try ok("kitchen", ["item", "ls"])
        // The phone has left: its folder is stamped, not listed.
        try expectNothingListed("kitchen")

        // It comes back with a change: found by the next command. Then it leaves again.
        try ok("phone", ["item", "add", "Bread"])
        #expect(try ok("kitchen", ["item", "ls"]).contains("Bread"))
        try ok("kitchen", ["item", "ls"])
        try expectNothingListed("kitchen")

        // Its folder made unreadable after it was remembered: reported, not taken for empty.
        let folder = logs.appendingPathComponent(phoneFolder).path
        #expect(chmod(folder, 0) == 0)
        defer { _ = chmod(folder, 0o755) }
        let sync = try run("kitchen", ["cloud", "sync"])
        #expect(sync.status != 0, "an unreadable folder makes cloud sync fail")
        #expect(sync.stderr.contains("\(phoneFolder): cannot be listed (Permission denied)"), "\(sync.stderr)")
        #expect(try ok("kitchen", ["cloud", "status"]).contains("cannot be listed (Permission denied)"))
        #expect(try run("kitchen", ["cloud", "sync"]).status != 0, "at every command until it is fixed")

        #expect(chmod(folder, 0o755) == 0)
        try ok("phone", ["item", "add", "Tea"])
        #expect(try run("kitchen", ["cloud", "sync"]).status == 0)
        #expect(try ok("kitchen", ["item", "ls"]).contains("Tea"))
    }
}
