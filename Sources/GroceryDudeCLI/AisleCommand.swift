import ArgumentParser
import Foundation
import GroceryModel
import TextAndFiles

/// `grocery-dude aisle add|rename|rm|ls|move [--in SHOP]`: a shop's aisles, in its walking
/// order. `shop` is another name of it, as the command was called before shops.
struct AisleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aisle",
        abstract: "Shop aisles (Produce, Aisle 2 …), in each shop's walking order.",
        discussion: """
            Without --in, the default shop's aisles: the book's shop aisles, as before shops. An \
            aisle nobody moved stays in natural order among the others that were not moved \
            (Aisle 2 before Aisle 10); aisle move places one.
            """,
        subcommands: [Add.self, Rename.self, Rm.self, Ls.self, Move.self],
        aliases: ["shop"])

    /// `--in SHOP`: the shop, by name or ID prefix; the default shop without it.
    struct ShopOption: ParsableArguments {
        @Option(name: .customLong("in"), help: "The shop (its name or a prefix of its ID); default: the default shop.")
        var shop: String?
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add an aisle.")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The name.") var name: String
        @OptionGroup var shop: ShopOption

        func run() throws {
            let device = try root.global.openDevice(command: "aisle add")
            let shop = try device.store.shop(self.shop.shop)
            let aisle = try device.store.addAisle(name, in: shop.id)
            print("Added aisle \(aisle.name.debugDescription) to \(shop.name) [\(aisle.id.description.prefix(8))]")
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Rename an aisle; its items follow.")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The aisle: its name (ignoring case) or a prefix of its ID.") var reference: String
        @Argument(help: "The new name.") var newName: String
        @OptionGroup var shop: ShopOption

        func run() throws {
            let device = try root.global.openDevice(command: "aisle rename")
            let shop = try device.store.shop(self.shop.shop)
            let aisle = try device.store.renameAisle(reference, to: newName, in: shop.id)
            print("Renamed aisle to \(aisle.name.debugDescription)")
        }
    }

    struct Rm: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Delete an aisle; its items are found in no aisle of that shop.")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The aisle: its name (ignoring case) or a prefix of its ID.") var reference: String
        @OptionGroup var shop: ShopOption

        func run() throws {
            let device = try root.global.openDevice(command: "aisle rm")
            let shop = try device.store.shop(self.shop.shop)
            let aisle = try device.store.removeAisle(reference, in: shop.id)
            let items =
                aisle.itemCount == 0 ? "" : "; \(aisle.itemCount) item\(aisle.itemCount == 1 ? "" : "s") lost the link"
            print("Removed aisle \(aisle.name.debugDescription)\(items)")
        }
    }

    struct Ls: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls", abstract: "List a shop's aisles in its walking order.")
        @ParentCommand var root: GroceryDudeCommand
        @OptionGroup var shop: ShopOption
        @Flag(help: "Print JSON: [{\"id\", \"name\", \"items\", \"modified\", \"position\"}], in walking order.")
        var json = false

        func run() throws {
            let device = try root.global.openDevice(command: "aisle ls")
            let shop = try device.store.shop(self.shop.shop)
            let aisles = try device.store.aisles(in: shop.id)
            if json {
                var writer = JSONWriter()
                for aisle in aisles {
                    writer.appendObject([
                        "id": .string(aisle.id.description), "name": .string(aisle.name),
                        "items": .integer(aisle.itemCount), "modified": .string(Timestamp.string(aisle.modified)),
                        "position": aisle.position.map(JSONWriter.Value.number) ?? .string(nil),
                    ])
                }
                print(writer.text, terminator: "")
            } else if aisles.isEmpty {
                print("No aisles in \(shop.name).")
            } else {
                let width = aisles.map { TextWidth.columns(of: $0.name) }.max() ?? 0
                for aisle in aisles {
                    let items = "\(aisle.itemCount) item\(aisle.itemCount == 1 ? "" : "s")"
                    print("\(aisle.id.description.prefix(8))  \(TextWidth.pad(aisle.name, to: width))  \(items)")
                }
            }
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "move", abstract: "Move an aisle in its shop's walking order.")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The aisle: its name (ignoring case) or a prefix of its ID.") var reference: String
        @OptionGroup var shop: ShopOption
        @Flag(help: "Make it the first aisle.") var first = false
        @Flag(help: "Make it the last aisle.") var last = false
        @Option(help: "Just before this aisle.") var before: String?
        @Option(help: "Just after this aisle.") var after: String?

        func validate() throws {
            let given = [first, last, before != nil, after != nil].filter { $0 }.count
            guard given == 1 else {
                throw ValidationError("say where: one of --first, --last, --before AISLE, --after AISLE")
            }
        }

        func run() throws {
            let device = try root.global.openDevice(command: "aisle move")
            let shop = try device.store.shop(self.shop.shop)
            let move: WalkingOrder.Move =
                first ? .first : last ? .last : before.map(WalkingOrder.Move.before) ?? .after(after ?? "")
            let aisles = try device.store.moveAisle(reference, in: shop.id, to: move)
            print("\(shop.name): " + aisles.map(\.name).joined(separator: ", "))
        }
    }
}
