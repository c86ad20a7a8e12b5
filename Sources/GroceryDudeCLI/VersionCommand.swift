import ArgumentParser
import GroceryResources

/// `grocery-dude version` (and `--version`): the version, from `Resources/VERSION`.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "version", abstract: "Show the version.")

    func run() {
        print("grocery-dude \(GroceryResources.version)")
    }
}
