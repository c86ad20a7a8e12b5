/// The app's keys as the in-app help shows them (``HelpView``), for the manual page: one source
/// for the help over the screen, the README's key table and the manual's SCREENS AND KEYS.
public enum KeyHelp {
    /// One section of the help: its title and its keys, each with what it does, in the help's
    /// own order and words.
    public struct Section: Sendable {
        public let title: String
        public let keys: [(keys: String, action: String)]
    }

    public static var sections: [Section] {
        HelpView.sections.map { title, keys in
            Section(title: title, keys: keys.map { (keys: $0.0, action: $0.1) })
        }
    }
}
