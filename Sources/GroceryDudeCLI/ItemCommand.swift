import ArgumentParser
import Foundation
import GroceryModel

/// `grocery-dude item …`: items and the shopping list.
struct ItemCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "item",
        abstract: "Add, change, list and tick off items.",
        subcommands: [
            Add.self, Edit.self, Remove.self, List.self, Listed.self, Unlisted.self,
            Collect.self, Uncollect.self, ClearListed.self, ClearCollected.self,
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
        @Option(name: .customLong("shop-location"), help: "The shop aisle (found or created). Empty to clear.")
        var shopLocation: String?
        @Option(help: "A note (model version 2). Empty to clear.")
        var note: String?
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
            draft.unit = links.unit
            draft.homeLocation = links.homeLocation
            draft.shopLocation = links.shopLocation
            draft.note = links.note.flatMap { $0.isEmpty ? nil : $0 }
            draft.listed = !unlisted
            let row = try device.store.addItem(draft)
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
                    "nothing to change: pass --name, --qty, --unit, --home-location, --shop-location or --note")
            }
        }

        func run() throws {
            let device = try root.global.openDevice(command: "item edit")
            var changes = ItemChanges()
            changes.name = name
            changes.quantity = try links.quantity.map { try Validation.quantity(text: $0) }
            changes.unit = links.unit
            changes.homeLocation = links.homeLocation
            changes.shopLocation = links.shopLocation
            changes.note = links.note
            let row = try device.store.editItem(reference, changes)
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
        @Flag(help: "Print JSON (the format is in docs/command-line.md).") var json = false

        func run() throws {
            let device = try root.global.openDevice(command: "item ls")
            let items = try device.store.listing(listedOnly: listed)
            if json {
                try ItemText.writeJSON(items, to: FileHandle.standardOutput)
            } else if items.count == 0 {
                print(listed ? "The shopping list is empty." : "No items.")
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
}
