import ArgumentParser
import Foundation
import GroceryModel
import TextAndFiles

extension ItemCommand {
    /// `grocery-dude item history NAME [--json]`: every change of the item this device knows,
    /// oldest first, with who made it and when.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "Every change of an item this device knows (90 days), with whose it was.",
            discussion: """
                Finds removed items and items merged into another by the name they had. Times are \
                when each change was made on its device (its clock), not when it arrived.
                """)
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The item: its name (ignoring case) or a prefix of its ID; a removed item by its name.")
        var reference: String
        @Flag(help: "Print JSON: [{\"at\", \"person\", \"device\", \"change\", \"field\", \"from\", \"to\"}].")
        var json = false

        func run() throws {
            let device = try root.global.openDevice(command: "item history")
            let history = try device.store.itemHistory(reference)
            if json {
                var writer = JSONWriter()
                for entry in history.entries {
                    for change in entry.changes {
                        let (kind, field, from, to) = Self.parts(change)
                        writer.appendObject([
                            "at": .string(Timestamp.string(entry.at)), "person": .string(entry.person),
                            "device": .string(entry.device), "change": .string(kind), "field": .string(field),
                            "from": .string(from), "to": .string(to),
                        ])
                    }
                }
                print(writer.text, terminator: "")
                return
            }
            print(history.name + (history.exists ? "" : " (not in the list now)"))
            if history.entries.isEmpty { print("  no change known on this device") }
            for entry in history.entries {
                let what = entry.changes.map(\.words).joined(separator: ", ")
                print("  \(Timestamp.string(entry.at))  \(entry.who): \(what)")
            }
        }

        static func parts(_ change: ItemHistory.Entry.Change) -> (String, String?, String?, String?) {
            switch change {
            case .added(let name): ("added", "name", nil, name)
            case .field(let field, let from, let to): ("changed", field, from, to)
            case .listed(let on): (on ? "listed" : "unlisted", "listed", nil, nil)
            case .collected(let on): (on ? "collected" : "uncollected", "collected", nil, nil)
            case .removed: ("removed", nil, nil, nil)
            case .merged(let into): ("merged", nil, nil, into)
            }
        }
    }
}
