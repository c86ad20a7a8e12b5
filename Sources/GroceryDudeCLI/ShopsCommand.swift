import ArgumentParser
import Foundation
import GroceryModel
import TextAndFiles

/// `grocery-dude shops ls|new|rename|rm`: the shops, each with its own aisles in its own order.
struct ShopsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shops",
        abstract: "Shops (Aldi, Lidl, the corner shop), each with its own aisles in its own walking order.",
        discussion: """
            Every list has a default shop, "My shop", which holds the aisles of commands that name \
            no shop (--in SHOP names another). Model version 3.
            """,
        subcommands: [Ls.self, New.self, Rename.self, Rm.self])

    struct Ls: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the shops.")
        @ParentCommand var root: GroceryDudeCommand
        @Flag(help: "Print JSON: [{\"id\", \"name\", \"aisles\", \"modified\", \"default\"}].") var json = false

        func run() throws {
            let device = try root.global.openDevice(command: "shops ls")
            let shops = try device.store.shops()
            if json {
                var writer = JSONWriter()
                for shop in shops {
                    writer.appendObject([
                        "id": .string(shop.id.description), "name": .string(shop.name),
                        "aisles": .integer(shop.aisleCount), "modified": .string(Timestamp.string(shop.modified)),
                        "default": .bool(shop.isDefault),
                    ])
                }
                print(writer.text, terminator: "")
                return
            }
            let width = shops.map { TextWidth.columns(of: $0.name) }.max() ?? 0
            for shop in shops {
                let aisles = "\(shop.aisleCount) aisle\(shop.aisleCount == 1 ? "" : "s")"
                print(
                    "\(shop.id.description.prefix(8))  \(TextWidth.pad(shop.name, to: width))  \(aisles)"
                        + (shop.isDefault ? "  (default)" : ""))
            }
        }
    }

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "new", abstract: "Add a shop.")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The shop's name.") var name: String

        func run() throws {
            let device = try root.global.openDevice(command: "shops new")
            let shop = try device.store.addShop(name: name)
            print("Added shop \(shop.name.debugDescription) [\(shop.id.description.prefix(8))]")
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Rename a shop (the default one too).")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The shop: its name (ignoring case) or a prefix of its ID.") var reference: String
        @Argument(help: "The new name.") var newName: String

        func run() throws {
            let device = try root.global.openDevice(command: "shops rename")
            let shop = try device.store.renameShop(reference, to: newName)
            print("Renamed shop to \(shop.name.debugDescription)")
        }
    }

    struct Rm: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Delete a shop and its aisles; items keep their other shops' aisles.")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The shop: its name (ignoring case) or a prefix of its ID.") var reference: String
        @Flag(help: "Do not ask for confirmation.") var yes = false

        func run() throws {
            let device = try root.global.openDevice(command: "shops rm")
            let shop = try device.store.shop(reference)
            guard !shop.isDefault else { throw GroceryError.defaultShop(name: shop.name) }
            if !yes {
                try ListsCommand.confirm(
                    "Delete the shop \(shop.name.debugDescription) and its \(shop.aisleCount) aisles?",
                    script: "deleting the shop \(shop.name.debugDescription) needs confirmation", nothing: "deleted")
            }
            let removed = try device.store.removeShop(shop.id.description)
            print("Removed shop \(removed.name.debugDescription) and its aisles")
        }
    }
}
