/// `grocery-dude --help` or `-h` alone: the argument parser's own help screen of the top-level
/// command (its `helpMessage()`, the same generator and width), printed without parsing.
///
/// Parsing the line first reflects on the top-level command, its options and the default `tui`
/// and looks for `--generate-completion-script` by parsing two commands of the parser's own:
/// 5.3M of the 18.2M instructions `--help` took, about 1 ms of its 5 (docs/decisions/0182).
/// `grocery-dude help` still goes through the parser, and a test holds the three texts equal.
enum RootHelp {
    static func isRequested(by arguments: [String]) -> Bool {
        arguments == ["--help"] || arguments == ["-h"]
    }
}
