import ArgumentParser
import Foundation
import GroceryModel
import StoreLifecycle
import TextAndFiles

/// `grocery-dude lists …`: the device's named lists, each a store of its own (`--list NAME`
/// picks one for any command).
struct ListsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lists", abstract: "Several named lists: list, make, rename and remove them.",
        discussion: """
            Each list is a store of its own, synced on its own: a list made on one device is found \
            by the others through the cloud folder, with who made it; renames sync. Pick a list for \
            any command with --list NAME (or GROCERY_DUDE_LIST). Two lists made apart under one name \
            are both kept and shown apart; lists merge makes them one.
            """,
        subcommands: [Ls.self, New.self, Rename.self, Rm.self, Merge.self])

    /// Asks `question` [y/N] on a terminal; from a script (no terminal) refuses, saying to
    /// pass --yes. Not confirmed: throws, and nothing was done.
    static func confirm(_ question: String, script: String, nothing done: String) throws {
        guard isatty(STDIN_FILENO) == 1 else {
            throw ValidationErrorMessage("\(script); pass --yes to do it from a script")
        }
        print("\(question) [y/N] ", terminator: "")
        fflush(nil)
        guard let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased(),
            answer == "y" || answer == "yes"
        else {
            throw ValidationErrorMessage("not confirmed; nothing was \(done)")
        }
    }

    /// The device's lists, read through the store layer.
    static func lists(_ root: GroceryDudeCommand, command: String) throws -> NamedLists {
        let (sandbox, logger) = try root.global.openSandbox(command: command)
        return NamedLists(
            configuration: try root.global.storeConfigurationIgnoringList(
                sandbox: sandbox, logger: logger, command: command))
    }

    struct Ls: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "Show the lists.")
        @ParentCommand var root: GroceryDudeCommand
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let lists = try ListsCommand.lists(root, command: "lists ls")
            let all = try lists.all()
            let active =
                root.global.requestedList().flatMap { try? lists.resolve($0).storeName }
                ?? GroceryStore.defaultStoreName
            if json {
                var writer = JSONWriter()
                for list in all {
                    writer.appendObject([
                        "name": .string(list.name), "storeName": .string(list.storeName),
                        "createdBy": .string(list.createdBy), "created": .string(list.created.map(Timestamp.string)),
                        "default": .bool(list.isDefault), "current": .bool(list.storeName == active),
                        "store": .string(list.storeName), "madeBy": .string(list.createdBy),
                    ])
                }
                print(writer.text, terminator: "")
                return
            }
            let nameWidth = all.map { TextWidth.columns(of: $0.name) }.max() ?? 0
            // Lists that share a name (made apart on two devices) show their store names too.
            let shared = Dictionary(grouping: all, by: { $0.nameKey }).filter { $0.value.count > 1 }
            for list in all {
                let marker = list.storeName == active ? "*" : " "
                var origin = list.isDefault ? "default list" : ""
                if let device = list.createdBy {
                    origin = "made by \(device)" + (list.created.map { " on \(Self.day($0))" } ?? "")
                }
                if shared[list.nameKey] != nil {
                    origin += "  store \(list.storeName) (the name is shared: --list \(list.storeName))"
                }
                print("\(marker) \(TextWidth.pad(list.name, to: nameWidth))  \(origin)")
            }
        }

        static func day(_ date: Date) -> String { String(Timestamp.string(date).prefix(10)) }
    }

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "new", abstract: "Make a new list.")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "Its name: free text (periods, apostrophes, any language).") var name: String

        func run() throws {
            let list = try ListsCommand.lists(root, command: "lists new").create(name)
            print("Made the list \(list.name.quotedName): use it with --list \(Self.shellWord(list.name)).")
        }

        static func shellWord(_ text: String) -> String {
            text.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) || "-_".unicodeScalars.contains($0)
            }
                ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Give a list a new name, on every device.")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The list's name now.", completion: CompletionValues.listNames) var name: String
        @Argument(help: "Its new name.") var newName: String

        func run() throws {
            let lists = try ListsCommand.lists(root, command: "lists rename")
            let renamed = try lists.rename(try lists.resolve(name), to: newName)
            print("Renamed \(name.quotedName) to \(renamed.name.quotedName).")
        }
    }

    struct Rm: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Remove a list from every device's lists; its data is kept aside.",
            discussion:
                "Without --yes, asks first. This device's copy moves to <data-dir>/<device>/removed-lists/; the cloud folder keeps its logs."
        )
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The list's name.", completion: CompletionValues.listNames) var name: String
        @Flag(help: "Do not ask for confirmation.") var yes = false

        func run() throws {
            let lists = try ListsCommand.lists(root, command: "lists rm")
            let list = try lists.resolve(name)
            if !yes {
                try ListsCommand.confirm(
                    "Remove the list \(list.name.quotedName) from every device? This device's copy is kept aside.",
                    script: "lists rm removes \(list.name.quotedName) from every device", nothing: "removed")
            }
            let kept = try lists.remove(list)
            print(
                "Removed the list \(list.name.quotedName)."
                    + (kept.map { " This device's copy is kept at \($0.path)." } ?? ""))
        }
    }
}

extension ListsCommand {
    struct Merge: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge", abstract: "Make two lists one, on every device: every item of both kept.",
            discussion: """
                FROM's items move into INTO with their values and the times they were last changed, so an \
                edit made elsewhere before the merge still wins or loses by its own time; items of one name \
                become one, as dedupe does. FROM is then removed from every device's lists; changes to it \
                that arrive later are carried into INTO. Name either by its name or, when two lists share \
                one, by its store name (lists ls shows them). Without --yes, asks first.
                """)
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The list to merge away: its name or its store name.", completion: CompletionValues.listNames)
        var from: String
        @Option(
            name: .customLong("into"), help: "The list that stays: its name or its store name.",
            completion: CompletionValues.listNames)
        var into: String
        @Flag(help: "Do not ask for confirmation.") var yes = false

        func run() throws {
            let lists = try ListsCommand.lists(root, command: "lists merge")
            let source = try lists.resolve(from)
            let survivor = try lists.resolve(into)
            guard source.storeName != survivor.storeName else {
                // Two names for one list: one of them was merged into the other already.
                let sameText =
                    from.precomposedStringWithCanonicalMapping.lowercased()
                    == into.precomposedStringWithCanonicalMapping.lowercased()
                if sameText { throw NamedListError.sameList(source.name) }
                throw ValidationErrorMessage(
                    "\(from.quotedName) and \(into.quotedName) are one list now, \(survivor.describedWithStore) (a list merged into another is found there): nothing to merge"
                )
            }
            guard !source.isDefault else {
                throw ValidationErrorMessage(
                    "the default list cannot be merged away; merge the other list into it (grocery-dude lists merge \(survivor.storeName) --into \(source.storeName))"
                )
            }
            if !yes {
                try ListsCommand.confirm(
                    "Merge the list \(source.describedWithStore) into \(survivor.describedWithStore) on every device? Every item of both is kept.",
                    script:
                        "lists merge makes \(source.describedWithStore) part of \(survivor.describedWithStore) on every device",
                    nothing: "merged")
            }
            // Both stores brought up to date first (imported, exported), under one claim on the device.
            let target = try root.global.openDevice(command: "lists merge", storeName: survivor.storeName)
            let copy = try root.global.openDevice(
                command: "lists merge", storeName: source.storeName, claim: target.claim)
            let outcome = try ListMerge.merge(
                source, into: survivor, lists: lists, source: copy.coordinator, survivor: target.coordinator)
            var line =
                "Merged \(source.describedWithStore) into \(survivor.describedWithStore): \(outcome.copied) object(s) copied"
            if outcome.deduplicated > 0 { line += ", \(outcome.deduplicated) duplicate(s) merged" }
            print(line + ".")
            if outcome.waiting > 0 {
                print(
                    "\(outcome.waiting) change(s) wait to be exported: the other devices get the merge once they are.")
            }
        }
    }
}

extension String {
    /// A list's name in quotes, as the user typed it (no escaped apostrophes).
    fileprivate var quotedName: String { "\"\(self)\"" }
}
