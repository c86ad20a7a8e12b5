import ArgumentParser
import GroceryDudeCLI
import Testing

/// Every command names itself. Without a `commandName`, the argument parser derives a command's
/// name from its type with `String(describing:)` each time it walks the command tree, and each
/// derivation is a dynamic cast that scans the binary's protocol conformances: 7 % of the CPU
/// time of `item add`, measured with perf.
@Suite("Command names")
struct CommandNamesTests {
    @Test func everyCommandInTheTreeHasAnExplicitName() {
        var unnamed: [String] = []
        var seen = 0
        func walk(_ command: ParsableCommand.Type) {
            seen += 1
            if command.configuration.commandName == nil { unnamed.append(String(reflecting: command)) }
            for subcommand in command.configuration.subcommands { walk(subcommand) }
        }
        walk(GroceryDudeCommand.self)
        #expect(seen > 40, "the walk must reach the whole tree, found \(seen) commands")
        #expect(unnamed.isEmpty, "commands without a commandName: \(unnamed)")
    }
}
