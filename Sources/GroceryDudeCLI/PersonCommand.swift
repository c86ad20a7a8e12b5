import ArgumentParser
import Foundation
import StoreLifecycle
import TextAndFiles

/// `grocery-dude person [show | set NAME]`: who uses this device, named in every log it
/// publishes so that a household sees whose change it was.
struct PersonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "person",
        abstract: "Who uses this device (named in every change it publishes).",
        discussion: """
            Default: the device's name (never the login's full name, which would be published \
            without asking). GROCERY_DUDE_PERSON names another for one command.
            """,
        subcommands: [Show.self, Set.self], defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show this device's person.")
        @ParentCommand var root: GroceryDudeCommand
        @Flag(help: "Print JSON: {\"person\", \"device\", \"from\"} (from: set, environment or device).") var json =
            false

        func run() throws {
            let (sandbox, logger) = try root.global.openSandbox(command: "person show")
            let configuration = try root.global.storeConfigurationIgnoringList(
                sandbox: sandbox, logger: logger, command: "person show")
            let person = configuration.person()
            let from =
                switch person.source {
                case .set: "set"
                case .environment: "environment"
                case .deviceName: "device"
                }
            if json {
                var writer = JSONObjectWriter()
                writer.add("person", .string(person.name))
                writer.add("device", .string(sandbox.device))
                writer.add("from", .string(from))
                print(writer.text)
                return
            }
            let why =
                switch person.source {
                case .set: "set on this device"
                case .environment: "from GROCERY_DUDE_PERSON, for this command"
                case .deviceName: "the device's name; grocery-dude person set NAME names you"
                }
            print("\(person.name) (\(why))")
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Name the person who uses this device (an item name's rules).")
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The name other devices show for this device's changes.") var name: String

        func run() throws {
            let (sandbox, _) = try root.global.openSandbox(command: "person set")
            let person = try DevicePerson.set(name, on: sandbox)
            print("This device's changes are now named as \(person.name.debugDescription)'s")
        }
    }
}
