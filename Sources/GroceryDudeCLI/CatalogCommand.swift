import ArgumentParser
import Foundation
import GroceryModel
import TextAndFiles

/// `grocery-dude unit|home add|rename|rm|ls`: the lists of names items point at (shop aisles:
/// ``AisleCommand``).
enum CatalogCommand {
    struct Unit: ParsableCommand {
        static let configuration = CatalogCommand.configuration(UnitTag.self, abstract: "Units (kg, L, pk …).")
    }

    struct Home: ParsableCommand {
        static let configuration = CatalogCommand.configuration(
            HomeTag.self, abstract: "Home locations (Fridge, Pantry …).")
    }

    /// The four operations of one kind. Argument parser commands are types, so each kind gets
    /// its own by instantiating the generic commands below with its tag.
    fileprivate static func configuration<Tag: CatalogKindTag>(_ tag: Tag.Type, abstract: String)
        -> CommandConfiguration
    {
        CommandConfiguration(
            commandName: Tag.kind.rawValue,
            abstract: abstract,
            subcommands: [
                CatalogAdd<Tag>.self, CatalogRename<Tag>.self, CatalogRemove<Tag>.self, CatalogList<Tag>.self,
            ]
        )
    }
}

/// Which kind a generic command works on. A class, not a protocol: the argument parser makes each
/// command's type metadata, which checks `Tag` against its requirement; a protocol requirement is
/// looked up in the binary's list of every conformance (about 25 µs), a superclass one is not.
private class CatalogKindTag { class var kind: CatalogKind { preconditionFailure("every tag names its kind") } }
private final class UnitTag: CatalogKindTag { override class var kind: CatalogKind { .unit } }
private final class HomeTag: CatalogKindTag { override class var kind: CatalogKind { .home } }

private struct CatalogAdd<Tag: CatalogKindTag>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "add", abstract: "Add a \(Tag.kind.noun).")
    }
    @ParentCommand var root: GroceryDudeCommand
    @Argument(help: "The name.") var name: String

    func run() throws {
        let device = try root.global.openDevice(command: "\(Tag.kind.rawValue) add")
        let entry = try device.store.addEntry(Tag.kind, name: name)
        print("Added \(Tag.kind.noun) \(entry.name.debugDescription) [\(entry.id.description.prefix(8))]")
    }
}

private struct CatalogRename<Tag: CatalogKindTag>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "rename", abstract: "Rename a \(Tag.kind.noun); its items follow.")
    }
    @ParentCommand var root: GroceryDudeCommand
    @Argument(help: "The \(Tag.kind.noun): its name (ignoring case) or a prefix of its ID.") var reference: String
    @Argument(help: "The new name.") var newName: String

    func run() throws {
        let device = try root.global.openDevice(command: "\(Tag.kind.rawValue) rename")
        let entry = try device.store.renameEntry(Tag.kind, reference, to: newName)
        print("Renamed \(Tag.kind.noun) to \(entry.name.debugDescription)")
    }
}

private struct CatalogRemove<Tag: CatalogKindTag>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "rm", abstract: "Delete a \(Tag.kind.noun); its items lose the link.")
    }
    @ParentCommand var root: GroceryDudeCommand
    @Argument(help: "The \(Tag.kind.noun): its name (ignoring case) or a prefix of its ID.") var reference: String

    func run() throws {
        let device = try root.global.openDevice(command: "\(Tag.kind.rawValue) rm")
        let entry = try device.store.removeEntry(Tag.kind, reference)
        let items =
            entry.itemCount == 0 ? "" : "; \(entry.itemCount) item\(entry.itemCount == 1 ? "" : "s") lost the link"
        print("Removed \(Tag.kind.noun) \(entry.name.debugDescription)\(items)")
    }
}

private struct CatalogList<Tag: CatalogKindTag>: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "ls", abstract: "List the \(Tag.kind.noun)s.")
    }
    @ParentCommand var root: GroceryDudeCommand
    @Flag(help: "Print JSON: [{\"id\", \"name\", \"items\", \"modified\"}].") var json = false

    func run() throws {
        let device = try root.global.openDevice(command: "\(Tag.kind.rawValue) ls")
        let entries = try device.store.entries(Tag.kind)
        if json {
            var writer = JSONWriter()
            for entry in entries {
                writer.appendObject([
                    "id": .string(entry.id.description), "name": .string(entry.name),
                    "items": .integer(entry.itemCount), "modified": .string(Timestamp.string(entry.modified)),
                ])
            }
            print(writer.text, terminator: "")
        } else if entries.isEmpty {
            print("No \(Tag.kind.noun)s.")
        } else {
            let width = entries.map { TextWidth.columns(of: $0.name) }.max() ?? 0
            for entry in entries {
                let padded = TextWidth.pad(entry.name, to: width)
                print(
                    "\(entry.id.description.prefix(8))  \(padded)  \(entry.itemCount) item\(entry.itemCount == 1 ? "" : "s")"
                )
            }
        }
    }
}
