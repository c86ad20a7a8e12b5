import ArgumentParser
import Foundation
import GroceryModel
import StoreLifecycle

/// `grocery-dude item …`: items and the shopping list.
struct ItemCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "item",
        abstract: "Add, change, list and tick off items.",
        subcommands: [
            Add.self, Edit.self, Remove.self, List.self, History.self, Listed.self, Unlisted.self,
            Collect.self, Uncollect.self, ClearListed.self, ClearCollected.self, Claim.self, Unclaim.self,
        ]
    )

    /// The options shared by `add` and `edit` that set an item's links.
    struct LinkOptions: ParsableArguments {
        @Option(
            name: [.customLong("qty"), .customLong("quantity")], parsing: .unconditional,
            help: "The quantity (a number from 0 to 100000).")
        var quantity: String?
        @Option(help: "The unit's name (found ignoring case, or created). Empty to clear.")
        var unit: String?
        @Option(
            name: .customLong("home-location"), help: "Where it is kept at home (found or created). Empty to clear.")
        var homeLocation: String?
        @Option(
            name: [.customLong("aisle"), .customLong("shop-location")],
            help: "The aisle in the shop (found or created). Empty to clear.")
        var shopLocation: String?
        @Option(
            name: .customLong("in"),
            help: "The shop of --aisle (its name or a prefix of its ID); default: the default shop.")
        var shop: String?
        @Option(help: "A note (model version 2). Empty to clear.")
        var note: String?

        func validate() throws {
            if shop != nil, shopLocation == nil {
                throw ValidationError("--in names the shop of --aisle: pass --aisle AISLE too")
            }
        }

        /// The shop of --aisle, when it is not the default one (checked before anything changes),
        /// and the aisle's name, checked too.
        func otherShop(_ store: GroceryStore) throws -> (shop: ShopID, aisle: String)? {
            guard let reference = shop, let aisle = shopLocation else { return nil }
            let found = try store.shop(reference)
            guard !found.isDefault else { return nil }
            if !aisle.trimmingCharacters(in: .whitespaces).isEmpty {
                _ = try Validation.name(aisle, field: "aisle name")
            }
            return (found.id, aisle)
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add an item (on the shopping list unless --unlisted).")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The item's name.") var name: String
        @OptionGroup var links: LinkOptions
        @Flag(help: "Add it without putting it on the shopping list.") var unlisted = false

        func run() throws {
            let device = try root.global.openDevice(command: "item add")
            var draft = ItemDraft(name: name)
            if let text = links.quantity { draft.quantity = try Validation.quantity(text: text) }
            let other = try links.otherShop(device.store)
            draft.unit = links.unit
            draft.homeLocation = links.homeLocation
            draft.shopLocation = other == nil ? links.shopLocation : nil
            draft.note = links.note.flatMap { $0.isEmpty ? nil : $0 }
            draft.listed = !unlisted
            var row = try device.store.addItem(draft)
            if let other { row = try device.store.setAisle(of: row.id.description, in: other.shop, to: other.aisle) }
            print("Added \(ItemText.describe(row))")
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change an item.")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The item: its name (ignoring case) or a prefix of its ID.") var reference: String
        @Option(help: "A new name.") var name: String?
        @OptionGroup var links: LinkOptions

        func validate() throws {
            if name == nil, links.quantity == nil, links.unit == nil, links.homeLocation == nil,
                links.shopLocation == nil, links.note == nil
            {
                throw ValidationError(
                    "nothing to change: pass --name, --qty, --unit, --home-location, --aisle [--in SHOP] or --note")
            }
        }

        func run() throws {
            let device = try root.global.openDevice(command: "item edit")
            var changes = ItemChanges()
            changes.name = name
            changes.quantity = try links.quantity.map { try Validation.quantity(text: $0) }
            changes.unit = links.unit
            changes.homeLocation = links.homeLocation
            let other = try links.otherShop(device.store)
            changes.shopLocation = other == nil ? links.shopLocation : nil
            changes.note = links.note
            var row = try device.store.resolveItem(reference)
            if changes.changesAnything { row = try device.store.editItem(row.id.description, changes) }
            if let other { row = try device.store.setAisle(of: row.id.description, in: other.shop, to: other.aisle) }
            print("Updated \(ItemText.describe(row))")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Delete an item (and its photo).")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The item: its name (ignoring case) or a prefix of its ID.") var reference: String

        func run() throws {
            let device = try root.global.openDevice(command: "item rm")
            let row = try device.store.removeItem(reference)
            print("Removed \(row.name.debugDescription)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the items.")
        @ParentCommand var root: GroceryDudeCommand
        @Flag(help: "Only the items on the shopping list.") var listed = false
        @Option(
            name: .customLong("in"),
            help: "A shop: its items in its walking order, those in no aisle there last (by name).")
        var shop: String?
        @Option(
            help: ArgumentHelp(
                "The list as it was then, from this device's history (90 days): 2026-11-24T18:00:00Z or local 2026-11-24 18:00.",
                valueName: "time"))
        var at: String?
        @Flag(help: "Print JSON (the format is in docs/command-line.md).") var json = false

        func validate() throws {
            guard let at else { return }
            guard Timestamp.parseMoment(at) != nil else {
                throw ValidationError(
                    "invalid time \(Validation.shown(at)): give 2026-11-24T18:00:00Z (ISO 8601) or 2026-11-24 18:00 (local time)"
                )
            }
            if shop != nil { throw ValidationError("--at lists the default shop's aisles only: leave out --in") }
        }

        func run() throws {
            let device = try root.global.openDevice(command: "item ls")
            if let moment = at.flatMap(Timestamp.parseMoment) {
                return try listPast(at: moment, of: device.store)
            }
            let shop = try self.shop.map { try device.store.shop($0) }
            let items = try device.store.listing(listedOnly: listed)
            let order = try shop.map { try ItemText.ShopListing(items, in: $0.id, of: device.store) }
            let claims = ItemText.claimers(device.coordinator.current.household?.read())
            if json {
                try ItemText.writeJSON(
                    items, shops: try ItemText.ShopAisles(device.store), order: order?.order, claims: claims,
                    to: FileHandle.standardOutput)
            } else if items.count == 0 {
                print(listed ? "The shopping list is empty." : "No items.")
            } else {
                try ItemText.writeTable(items, shop: order, claims: claims, to: FileHandle.standardOutput)
            }
        }

        private func note(_ text: String) { FileHandle.standardError.write(Data("note: \(text)\n".utf8)) }

        /// `--at`: the list as this device's history says it was then (``PastList``).
        private func listPast(at moment: Date, of store: GroceryStore) throws {
            let past = try store.pastList(at: moment, listedOnly: listed)
            if let begins = past.historyBegins, begins > moment || past.uncertain > 0 {
                note(
                    "this device's history begins at \(Timestamp.string(begins)); what happened before then is not known here"
                )
            } else if past.historyBegins == nil {
                note("this device has no history yet: the list is shown as it is now")
            }
            let items = ItemListing(past.items)
            if json {
                let shops = ItemText.ShopAisles(defaultShop: try store.shop(nil).name, others: [:])
                try ItemText.writeJSON(items, shops: shops, to: FileHandle.standardOutput)
            } else if items.count == 0 {
                print(listed ? "The shopping list was empty." : "No items then.")
            } else {
                try ItemText.writeTable(items, to: FileHandle.standardOutput)
            }
        }
    }

    struct Listed: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "Put an item on the shopping list.")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The item: its name (ignoring case) or a prefix of its ID.") var reference: String

        func run() throws {
            let device = try root.global.openDevice(command: "item list")
            let row = try device.store.setListed(reference, true)
            print("Listed \(row.name.debugDescription)")
        }
    }

    struct Unlisted: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unlist", abstract: "Take an item off the shopping list.")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The item: its name (ignoring case) or a prefix of its ID.") var reference: String

        func run() throws {
            let device = try root.global.openDevice(command: "item unlist")
            let row = try device.store.setListed(reference, false)
            print("Unlisted \(row.name.debugDescription)")
        }
    }

    struct Collect: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "collect", abstract: "Tick an item off in the shop.")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The item: its name (ignoring case) or a prefix of its ID.") var reference: String

        func run() throws {
            let device = try root.global.openDevice(command: "item collect")
            let item = try device.store.resolveItem(reference)
            guard item.item.listed else {
                throw ValidationErrorMessage(
                    "\(item.name.debugDescription) is not on the shopping list; `item list` it first")
            }
            let row = try device.store.setCollected(reference, true)
            print("Collected \(row.name.debugDescription)")
        }
    }

    struct Uncollect: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "uncollect", abstract: "Untick an item.")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The item: its name (ignoring case) or a prefix of its ID.") var reference: String

        func run() throws {
            let device = try root.global.openDevice(command: "item uncollect")
            let row = try device.store.setCollected(reference, false)
            print("Uncollected \(row.name.debugDescription)")
        }
    }

    struct ClearListed: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear-listed", abstract: "Prepare's Clear: take every item off the shopping list.")
        @ParentCommand var root: GroceryDudeCommand

        func run() throws {
            let device = try root.global.openDevice(command: "item clear-listed")
            let count = try device.store.clearListed()
            print(
                count == 0
                    ? "Nothing to clear: the shopping list is empty."
                    : "Took \(count) item\(count == 1 ? "" : "s") off the shopping list.")
        }
    }

    struct ClearCollected: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear-collected", abstract: "Shop's Clear: remove the collected items from the shopping list."
        )
        @ParentCommand var root: GroceryDudeCommand

        func run() throws {
            let device = try root.global.openDevice(command: "item clear-collected")
            let count = try device.store.clearCollected()
            print(
                count == 0
                    ? "Nothing to clear: no item on the shopping list is collected."
                    : "Removed \(count) collected item\(count == 1 ? "" : "s") from the shopping list.")
        }
    }

    struct Claim: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "claim",
            abstract: "\"I'll get it\": claim a listed item, shown beside it on every device.",
            discussion: """
                The claim ends when the item is collected or taken off the list (a change made after the \
                claim), when it is unclaimed, or 12 hours after a device first sees it. Needs cloud sync.
                """)
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The item: its name (ignoring case) or a prefix of its ID.") var reference: String

        func run() throws {
            let device = try root.global.openDevice(command: "item claim")
            let row = try device.store.resolveItem(reference)
            let before = try HouseholdCommands.household(of: device).claim(row)
            let person = device.coordinator.configuration.person().name
            print(
                "Claimed \(row.name.debugDescription) for \(person)" + (before.map { " (it was \($0.person)'s)" } ?? "")
            )
        }
    }

    struct Unclaim: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unclaim", abstract: "Take back a claim on an item (yours or anyone's).")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The item: its name (ignoring case) or a prefix of its ID.") var reference: String

        func run() throws {
            let device = try root.global.openDevice(command: "item unclaim")
            let row = try device.store.resolveItem(reference)
            let released = try HouseholdCommands.household(of: device).unclaim(row)
            print("Released \(released.person)'s claim on \(row.name.debugDescription)")
        }
    }
}
