import ArgumentParser
import Foundation

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
        ],
        defaultSubcommand: TUICommand.self
    )

    @OptionGroup public var global: GlobalOptions

    public init() {}
}
