/// A line for the person running a command about work going on (a note, or a warning that
/// nothing was lost): a library never prints it. The command line writes it to standard error;
/// the full-screen app, which owns the terminal, leaves it to the log file.
public struct Notice: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable { case note, warning }

    public var kind: Kind
    public var text: String

    public init(_ kind: Kind, _ text: String) {
        self.kind = kind
        self.text = text
    }

    /// "note: …", "warning: …".
    public var description: String { "\(kind.rawValue): \(text)" }
}
