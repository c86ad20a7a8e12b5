import ArgumentParser
import Foundation
import GroceryModel
import Logging
import StoreLifecycle

/// What the shells complete for the options and arguments whose values the program can name:
/// the `completion:` of their declarations. Values that need the device (its lists, the devices
/// of the data folder) are read from the data folder the command line names — `--data-dir` and
/// `--device` typed on the line, else the environment and the defaults, as the program resolves
/// them — and only from the device's own files: never the cloud folder, so Tab never waits on a
/// share that hangs.
enum CompletionValues {
    static let logLevels: CompletionKind = .list(Logger.Level.allCases.map(\.rawValue))

    static let modelVersions: CompletionKind = .list((1...GrocerySchema.currentVersion).map(String.init))

    /// The files `import` reads, by the extensions it knows (`ArchiveFormat.detect`).
    static let importFiles: CompletionKind = .file(extensions: [
        "json", "csv", "xml", "sqlite", "sqlite3", "db", "storedata",
    ])

    /// The files `export --output` writes: the format follows the extension.
    static let exportFiles: CompletionKind = .file(extensions: ["json", "csv"])

    /// Stores kept aside (`kept/*.sqlite`), for `cloud merge-kept`.
    static let storeFiles: CompletionKind = .file(extensions: ["sqlite"])

    /// The device's lists (see ``NamedLists/namesForCompletion(of:)``).
    static let listNames: CompletionKind = .custom { words, _, _ in
        guard let sandbox = sandbox(typed: words) else { return [] }
        return NamedLists.namesForCompletion(of: sandbox)
    }

    /// The devices that have a folder in the data folder (`<data-dir>/devices/<device>`).
    static let deviceNames: CompletionKind = .custom { words, _, _ in
        guard let options = options(typed: words) else { return [] }
        let devices = options.resolvedDataDirectory().appendingPathComponent("devices")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: devices.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The accounts the device has stores of (`<sandbox>/ubiquity/<account>`).
    static let accountNames: CompletionKind = .custom { words, _, _ in
        guard let sandbox = sandbox(typed: words) else { return [] }
        let accounts = sandbox.root.appendingPathComponent("ubiquity")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: accounts.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The device the command line names, in the data folder it names.
    private static func sandbox(typed words: [String]) -> DeviceSandbox? {
        guard let options = options(typed: words) else { return nil }
        return try? DeviceSandbox(dataDirectory: options.resolvedDataDirectory(), device: options.resolvedDevice())
    }

    /// The global options `--data-dir` and `--device` as typed on the command line (as
    /// `--data-dir DIR` or `--data-dir=DIR`), the others left to the environment and defaults.
    static func options(typed words: [String]) -> GlobalOptions? {
        var arguments: [String] = []
        for (index, word) in words.enumerated() {
            for name in ["--data-dir", "--device"] {
                if word == name, index + 1 < words.count {
                    arguments += [name, shellWord(words[index + 1])]
                } else if word.hasPrefix(name + "=") {
                    arguments += [name, shellWord(String(word.dropFirst(name.count + 1)))]
                }
            }
        }
        return try? GlobalOptions.parse(arguments)
    }

    /// A word as the shell passes it on once the line runs, for the simple cases: quotes and
    /// backslashes removed, a leading `~/` expanded.
    static func shellWord(_ typed: String) -> String {
        var text = ""
        var quote: Character?
        var escaped = false
        for character in typed {
            if escaped {
                text.append(character)
                escaped = false
            } else if character == "\\" && quote != "'" {
                escaped = true
            } else if let open = quote, character == open {
                quote = nil
            } else if quote == nil && (character == "'" || character == "\"") {
                quote = character
            } else {
                text.append(character)
            }
        }
        if text == "~" || text.hasPrefix("~/") {
            text = FileManager.default.homeDirectoryForCurrentUser.path + text.dropFirst()
        }
        return text
    }
}
