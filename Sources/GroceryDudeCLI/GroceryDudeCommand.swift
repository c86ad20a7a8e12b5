import ArgumentParser
import Foundation
import StoreLifecycle

/// `grocery-dude`: the root command. Without a subcommand it opens the full-screen app.
public struct GroceryDudeCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "grocery-dude",
        abstract: "A grocery list for the terminal that syncs between devices through a shared folder.",
        discussion: """
            Each --device is a peer with its own store under --data-dir. Run without a subcommand \
            to open the full-screen app.
            """,
        subcommands: [
            TUICommand.self, ItemCommand.self, CatalogCommand.Unit.self, CatalogCommand.Home.self,
            CatalogCommand.Shop.self, ExportCommand.self, ImportCommand.self, DedupeCommand.self, AccountCommand.self, CloudCommand.self,
            BackupCommand.self, RestoreCommand.self, ListsCommand.self,
        ],
        defaultSubcommand: TUICommand.self
    )

    @OptionGroup public var global: GlobalOptions

    public init() {}
}

extension GroceryDudeCommand {
    /// Runs the command the arguments name, then closes every store it opened (which moves
    /// SQLite's write-ahead log into the store file), whether it succeeded or not.
    public static func runClosingStores() -> Never {
        DeviceProcess.readFaultRequest(fromEnvironmentVariable: "GROCERY_DUDE_FAULT")
        DeviceProcess.onWaitingForWriter { line in FileHandle.standardError.write(Data("\(Notice(.note, line))\n".utf8)) }
        do {
            var command = try parseAsRoot()
            try command.run()
            DeviceProcess.closeAllStores()
            exit()
        } catch {
            DeviceProcess.closeAllStores()
            exit(withError: error)
        }
    }
}
