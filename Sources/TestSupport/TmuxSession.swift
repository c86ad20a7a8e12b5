import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tmux server of the test's own (its own socket), running the real app in a pane of a
/// known size: keys go in with `send-keys`, the screen comes out with `capture-pane`.
public final class TmuxSession: @unchecked Sendable {
    public static var isAvailable: Bool {
        ["/usr/bin/tmux", "/usr/local/bin/tmux"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private let socket = "gd-test-\(UUID().uuidString.prefix(8))"
    public let name = "main"

    /// Starts `command` (a shell command line) in a `width`×`height` pane.
    public init(command: String, width: Int = 80, height: Int = 24) throws {
        try tmux([
            "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)",
            "env LANG=C.UTF-8 TERM=screen-256color \(command)",
        ])
    }

    /// Opens another window running `command`; returns its target name.
    @discardableResult
    public func newWindow(command: String) throws -> String {
        try tmux(["new-window", "-t", name, "-n", "second", "env LANG=C.UTF-8 TERM=screen-256color \(command)"])
        return "\(name):second"
    }

    /// Splits the window side by side, running `command` in the new pane; returns its target.
    @discardableResult
    public func splitPane(command: String) throws -> String {
        try tmux(["split-window", "-h", "-t", "\(name):0", "env LANG=C.UTF-8 TERM=screen-256color \(command)"])
        return "\(name):0.1"
    }

    /// Resizes the window, as a user dragging the terminal's corner would.
    public func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    /// Types text literally (no key names).
    public func type(_ text: String, target: String? = nil) throws {
        try tmux(["send-keys", "-l", "-t", target ?? name, text])
    }

    /// Pastes `text` as a terminal does (`paste-buffer -p`: between bracketed-paste markers when
    /// the app asked for them; line ends as carriage returns, as a terminal sends them).
    public func paste(_ text: String, target: String? = nil) throws {
        try tmux(["set-buffer", "-b", "test-paste", "--", text])
        try tmux(["paste-buffer", "-p", "-b", "test-paste", "-t", target ?? name])
    }

    /// A tmux format of the pane (`#{mouse_any_flag}`), as `display -p` prints it.
    public func display(_ format: String, target: String? = nil) throws -> String {
        try tmux(["display", "-p", "-t", target ?? name, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func sendKeys(_ keys: String..., target: String? = nil) throws {
        try tmux(["send-keys", "-t", target ?? name] + keys)
    }

    public func capture(target: String? = nil) throws -> String {
        try tmux(["capture-pane", "-p", "-t", target ?? name])
    }

    /// Captures the pane until `condition` holds or `timeout` passes; returns the last capture.
    ///
    /// The default is generous: a wait ends as soon as its condition holds, and the whole suite
    /// runs its tests side by side on two cores, where one app can take seconds to start. How
    /// fast the app answers is the benchmarks' business. A wait that expects nothing to happen
    /// passes its own short timeout.
    @discardableResult
    public func waitFor(timeout: TimeInterval = 60, target: String? = nil, _ condition: (String) -> Bool) throws
        -> String
    {
        let deadline = Date().addingTimeInterval(timeout)
        var screen = try capture(target: target)
        while !condition(screen), Date() < deadline {
            usleep(50_000)
            screen = try capture(target: target)
        }
        return screen
    }

    deinit { _ = try? tmux(["kill-server"]) }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }
        let status = try Spawn.run(["tmux", "-L", socket, "-f", "/dev/null"] + arguments, stdout: output.path)
        guard status == 0 || arguments.first == "kill-server" else {
            throw TmuxError(arguments: arguments, status: status)
        }
        return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let arguments: [String]
    let status: Int32
    var description: String { "tmux \(arguments.joined(separator: " ")) exited with \(status)" }
}

/// posix_spawn and waitpid, without Foundation's Process: tmux's client forks the server as a
/// daemon, and Foundation's child monitoring has been seen to miss the client's exit then.
enum Spawn {
    static func run(_ arguments: [String], stdout path: String) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        // The test runner blocks signals in its threads; give the child a clean mask, so that the
        // app in the pane receives Ctrl-C as it would in a user's terminal.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard result == 0 else { throw TmuxError(arguments: arguments, status: result) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
