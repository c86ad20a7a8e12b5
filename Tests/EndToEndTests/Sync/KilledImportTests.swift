import Foundation
import TestSupport
import Testing

/// A device killed (SIGKILL, as a power cut or `kill -9`) in the middle of an import, or just
/// after its commit, which does not wait for the disk: once it runs again, every change is
/// there exactly once.
@Suite("A process killed while importing")
struct KilledImportTests {
    let directory = TemporaryDirectory("killed-import")

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData)
    }

    @Test(arguments: ["mid-import", "after-import"])
    func everyChangeArrivesOnce(_ fault: String) throws {
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["cloud", "enable"])
        try phone.output(["cloud", "enable"])
        for name in ["Milk", "Eggs", "Bread"] { try kitchen.output(["item", "add", name]) }

        let killed = try phone.run(["cloud", "sync"], environment: ["GROCERY_DUDE_FAULT": fault])
        #expect(killed.status != 0, "the process was killed")
        #expect(killed.stdout.isEmpty, "killed before it said it synced: \(killed.stdout)")

        #expect(try phone.items().map { $0["name"] as! String } == ["Bread", "Eggs", "Milk"])
        #expect(try phone.output(["cloud", "sync"]).hasPrefix("Synced: exported 0 logs, imported 0 ("))
        #expect(try phone.output(["export"]) == (try kitchen.output(["export"])))
    }
}
