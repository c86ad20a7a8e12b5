import ArgumentParser
import Foundation
import GroceryResources
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
        version: "grocery-dude \(GroceryResources.version)",
        subcommands: [
            TUICommand.self, ItemCommand.self, CatalogCommand.Unit.self, CatalogCommand.Home.self,
            AisleCommand.self, ShopsCommand.self, PersonCommand.self, ShoppingCommand.self, WhoCommand.self,
            ExportCommand.self, ImportCommand.self,
            DedupeCommand.self,
            AccountCommand.self,
            CloudCommand.self,
            BackupCommand.self, RestoreCommand.self, ListsCommand.self, VersionCommand.self, ManualSectionsCommand.self,
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
        if RootHelp.isRequested(by: Array(CommandLine.arguments.dropFirst())) {
            print(helpMessage())
            exit()
        }
        if BashCompletionScript.isRequested(by: Array(CommandLine.arguments.dropFirst())) {
            print(BashCompletionScript.script(for: self))
            exit()
        }
        DeviceProcess.readFaultRequest(fromEnvironmentVariable: "GROCERY_DUDE_FAULT")
        DeviceProcess.onWaitingForWriter { line in FileHandle.standardError.write(Data("\(Notice(.note, line))\n".utf8))
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch  where exitCode(for: error) != .success && namesNoSubcommand(Array(CommandLine.arguments.dropFirst())) {
            // No subcommand named: the option is the top-level command's, not the app's (`tui`).
            FileHandle.standardError.write(
                Data(
                    """
                    Error: \(message(for: error))
                    Usage: grocery-dude [<options>] [<subcommand>]
                      See 'grocery-dude --help' for more information.

                    """.utf8))
            Foundation.exit(exitCode(for: error).rawValue)
        } catch {
            exit(withError: error)
        }
        do {
            try command.run()
            DeviceProcess.closeAllStores()
            exit()
        } catch {
            DeviceProcess.closeAllStores()
            exit(withError: ErrorAdvice.advised(error))
        }
    }

    /// Whether `arguments` name none of the subcommands (the app runs).
    static func namesNoSubcommand(_ arguments: [String]) -> Bool {
        let names = Set(configuration.subcommands.flatMap { [$0._commandName] + $0.configuration.aliases })
        return !arguments.contains(where: names.contains)
    }
}
