import ArgumentParser

/// `grocery-dude manual-sections` (hidden): the manual's parts that the argument parser's
/// generate-manual plugin cannot write (``ManualSections``), for `make manual` to splice into
/// the page it generates.
struct ManualSectionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manual-sections", abstract: "Print the manual's extra sections (mdoc).",
        shouldDisplay: false)

    func run() {
        print(ManualSections.text, terminator: "")
    }
}
