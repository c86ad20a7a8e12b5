import ArgumentParser
import Foundation

/// The bash completion script, as the argument parser writes it with one change: file-name
/// treatment only for file names.
///
/// The parser registers its function with `complete -o filenames`, which tells readline that
/// every completion is a file name: a subcommand or a fixed value that is also the name of a
/// folder in the current directory is completed as that folder (`grocery-dude cl<Tab>` next to
/// a folder `cloud` gave `cloud/`). Here the function is registered without it, and the helper
/// through which every value completion goes turns it on for the one completion, with
/// `compopt`, when it completes files or folders, or words that need quoting (a list named
/// "Week end" is inserted as `Week\ end`). Subcommands, options and plain values are words.
enum BashCompletionScript {
    static let registration = "complete -o filenames -F "
    static let helperEnd = """
            done < <(IFS=$'\\n' compgen "${@}" -- "${cur}")
        }
        """

    /// The script for `command`; the parser's own when its text is not as expected (a test
    /// completes a subcommand beside a folder of its name, so a change there is seen).
    static func script(for command: any ParsableCommand.Type) -> String {
        let script = command.completionScript(for: .bash)
        guard script.contains(registration), script.contains(helperEnd) else { return script }
        return
            script
            .replacingOccurrences(of: registration, with: "complete -F ")
            .replacingOccurrences(
                of: helperEnd,
                with: """
                        done < <(IFS=$'\\n' compgen "${@}" -- "${cur}")
                        # Files and folders are file names (quoted, a folder with its /), and so
                        # are words that need quoting; other words are inserted as they are.
                        if [[ "${1}" != -W ]]; then
                            compopt -o filenames 2>/dev/null
                        else
                            local word
                            for word in "${COMPREPLY[@]}"; do
                                if [[ "${word}" = *[^[:alnum:]._+,:@%=/-]* ]]; then
                                    compopt -o filenames 2>/dev/null
                                    break
                                fi
                            done
                        fi
                    }
                    """)
    }

    /// Whether `arguments` (without the program's name) ask for the bash completion script, as
    /// the argument parser reads them: the option alone on the line, with `bash` or without a
    /// shell when the shell it runs in is bash.
    static func isRequested(by arguments: [String]) -> Bool {
        switch arguments {
        case ["--generate-completion-script", "bash"], ["--generate-completion-script=bash"]: true
        case ["--generate-completion-script"]: CompletionShell.autodetected() == .bash
        default: false
        }
    }
}
