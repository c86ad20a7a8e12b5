import ArgumentParser
import Foundation
import GroceryModel
import StoreLifecycle
import TextAndFiles

/// `grocery-dude shopping start [--in SHOP]` / `shopping stop`: tell the household who is
/// shopping where (`who` lists it; the app's status line says it).
struct ShoppingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shopping",
        abstract: "Tell the other devices that you are shopping, and where.",
        discussion: """
            Other devices show "Anna is shopping at Aldi" (grocery-dude who lists it) for 2 hours after they \
            first see it, or until shopping stop; a running cloud watch, or the app with Shop open, keeps it \
            fresh while it runs (a new note every minute, each lasting 3 minutes: a device that stops \
            refreshing stops showing as shopping by itself). Needs cloud sync.
            """,
        subcommands: [Start.self, Stop.self])

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start", abstract: "Say that you are shopping (at a shop, with --in).")
        @ParentCommand var root: GroceryDudeCommand
        @Option(name: .customLong("in"), help: "The shop: its name or a prefix of its ID.") var shop: String?

        func run() throws {
            let device = try root.global.openDevice(command: "shopping start")
            let shop = try self.shop.map { try device.store.shop($0).name }
            try HouseholdCommands.household(of: device).startShopping(at: shop)
            let person = device.coordinator.configuration.person().name
            print(
                "Shopping\(shop.map { " at \($0)" } ?? ""): other devices show \"\(person) is shopping\(shop.map { " at \($0)" } ?? "")\" for 2 hours, or until grocery-dude shopping stop"
            )
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stop", abstract: "Say that you stopped shopping.")
        @ParentCommand var root: GroceryDudeCommand

        func run() throws {
            let device = try root.global.openDevice(command: "shopping stop")
            try HouseholdCommands.household(of: device).stopShopping()
            print("Stopped shopping")
        }
    }
}

/// `grocery-dude who [--json]`: the people shopping now.
struct WhoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "who", abstract: "List the people shopping now, on every device of the list (this one's too).")
    @ParentCommand var root: GroceryDudeCommand
    @Flag(help: "Print JSON: [{\"person\", \"device\", \"shop\", \"since\"}] (shop null for no shop in particular).")
    var json = false

    func run() throws {
        let device = try root.global.openDevice(command: "who")
        let household = try HouseholdCommands.household(of: device)
        // Offline, nobody can be seen: an error, not an empty list.
        try household.requireOnline()
        let shoppers = household.read().shoppers
        if json {
            let objects = shoppers.map { shopper in
                "{\"person\": \(JSONText.quoted(shopper.person)), \"device\": \(JSONText.quoted(shopper.device)), "
                    + "\"shop\": \(shopper.shop.map(JSONText.quoted) ?? "null"), "
                    + "\"since\": \(JSONText.quoted(Timestamp.string(shopper.since)))}"
            }
            print(objects.isEmpty ? "[]" : "[\n  " + objects.joined(separator: ",\n  ") + "\n]")
        } else if shoppers.isEmpty {
            print("Nobody is shopping now.")
        } else {
            for shopper in shoppers {
                print(
                    "\(shopper.summary) (device \(shopper.device)\(shopper.isThisDevice ? ", this one" : ""), since \(Timestamp.string(shopper.since)))"
                )
            }
        }
    }
}

/// What the household commands share.
enum HouseholdCommands {
    /// The household of the device's list: only on a cloud store.
    static func household(of device: OpenDevice) throws -> Household {
        guard let household = device.coordinator.current.household else { throw HouseholdError.notSyncing }
        return household
    }
}
