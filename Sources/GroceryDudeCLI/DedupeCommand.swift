import ArgumentParser
import Foundation
import GroceryModel
import TextAndFiles

/// `grocery-dude dedupe`: merge items, units and locations whose names differ only in case or
/// spaces into one of each — the same one on every device (``GroceryStore/mergeDuplicates()``).
struct DedupeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dedupe",
        abstract: "Merge duplicate items, units and locations (names equal ignoring case and spaces).",
        discussion: """
            The survivor keeps, property by property, the newest value any copy had; a unit or location is spelled as the \
            copies most items use. Whatever pointed at a duplicate points at the survivor, and an edit made elsewhere to a \
            duplicate lands on it when it arrives.
            """)
    @ParentCommand var root: GroceryDudeCommand
    @Flag(help: "Print what was merged as JSON.") var json = false

    func run() throws {
        let device = try root.global.openDevice(command: "dedupe")
        let report = try device.store.mergeDuplicates()
        if json {
            var writer = JSONWriter()
            for merge in report.groups {
                writer.appendObject([
                    "entity": .string(merge.entity), "name": .string(merge.name), "survivor": .string(merge.survivor),
                    "merged": .raw("[" + merge.merged.map(JSONText.quoted).joined(separator: ", ") + "]"),
                    "carried": .raw("[" + merge.carried.map(JSONText.quoted).joined(separator: ", ") + "]"),
                ])
            }
            print(writer.text, terminator: "")
            return
        }
        guard !report.groups.isEmpty else {
            print("No duplicates.")
            return
        }
        for merge in report.groups {
            let carried = merge.carried.isEmpty ? "" : " (took \(merge.carried.joined(separator: ", ")))"
            let count = "\(merge.merged.count) duplicate\(merge.merged.count == 1 ? "" : "s")"
            // A link has no name (an item's aisle in a shop): its copies followed a merge above.
            print(
                merge.name.isEmpty
                    ? "\(merge.entity): merged \(count), links whose item or shop was merged\(carried)"
                    : "\(merge.entity) \(merge.name.debugDescription): merged \(count)\(carried)")
        }
        print("Merged \(report.mergedCount) duplicate\(report.mergedCount == 1 ? "" : "s").")
    }
}
