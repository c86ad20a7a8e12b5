import Foundation
import TestSupport
import Testing

/// The bash completions the binary writes treat only files, folders and words that need quoting
/// as file names (the argument parser's `complete -o filenames` made `cl<Tab>` give `cloud/`
/// beside a folder `cloud`). A new version of the parser that writes its script differently
/// leaves it as the parser wrote it: this test says so. The install test types the completions
/// in bash.
@Suite("Bash completion script")
struct BashCompletionScriptTests {
    let directory = TemporaryDirectory("bash-completion")

    @Test(arguments: [["--generate-completion-script", "bash"], ["--generate-completion-script=bash"]])
    func subcommandsAreWordsAndFilesAreFileNames(arguments: [String]) throws {
        let runner = CommandRunner(dataDirectory: directory.path + "/data", device: "d")
        let script = try runner.run(arguments, global: false)
        #expect(script.status == 0)
        #expect(script.stdout.contains("\ncomplete -F _grocery-dude grocery-dude\n"))
        #expect(!script.stdout.contains("-o filenames -F"))
        #expect(script.stdout.contains("compopt -o filenames"), "files and folders are still file names")
    }
}
