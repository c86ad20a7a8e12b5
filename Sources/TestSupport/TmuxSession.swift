import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tmux server of the test's own (its own socket), running the real app in a pane of a
/// known size: keys go in with `send-keys`, the screen comes out with `capture-pane`.
///
/// Every pane it opens has an idle file of its own (`GROCERY_DUDE_IDLE_FILE`, see the app's
/// `IdleReport`), and the session counts the keys it sends to each pane: ``waitForIdle(target:)``
/// waits until the app has handled them all and the pane shows what it drew.
public final class TmuxSession: @unchecked Sendable {
    public static var isAvailable: Bool {
        ["/usr/bin/tmux", "/usr/local/bin/tmux"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private let socket = "gd-test-\(UUID().uuidString.prefix(8))"
    public let name = "main"
    /// The panes' idle files.
    private let idleFolder = TemporaryDirectory("tmux-idle")
    private let lock = NSLock()
    /// Pane ID (`%0`) → its idle file.
    private var idleFiles: [String: String] = [:]
    /// Pane ID → how many keys were sent to it.
    private var keysSent: [String: Int] = [:]

    /// Starts `command` (a shell command line) in a `width`×`height` pane.
    public init(command: String, width: Int = 80, height: Int = 24) throws {
        try openPane(["new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)"], command: command)
    }

    /// Opens another window running `command`; returns its target name.
    @discardableResult
    public func newWindow(command: String) throws -> String {
        try openPane(["new-window", "-t", name, "-n", "second"], command: command)
        return "\(name):second"
    }

    /// Splits the window side by side, running `command` in the new pane; returns its target.
    @discardableResult
    public func splitPane(command: String) throws -> String {
        try openPane(["split-window", "-h", "-t", "\(name):0"], command: command)
        return "\(name):0.1"
    }

    /// Runs tmux's `verb` (new-session, new-window, split-window) for a pane running `command`
    /// with an idle file of its own.
    private func openPane(_ verb: [String], command: String) throws {
        let file = lock.withLock { idleFolder.file("pane-\(idleFiles.count)").path }
        let pane = try tmux(
            verb + [
                "-P", "-F", "#{pane_id}", "-e", "GROCERY_DUDE_IDLE_FILE=\(file)",
                "env LANG=C.UTF-8 TERM=screen-256color \(command)",
            ]
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        lock.withLock { idleFiles[pane] = file }
    }

    /// Resizes the window, as a user dragging the terminal's corner would.
    public func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    /// Types text literally (no key names): a key per Unicode scalar.
    public func type(_ text: String, target: String? = nil) throws {
        try count(text.unicodeScalars.count, sentTo: target)
        try tmux(["send-keys", "-l", "-t", target ?? name, text])
    }

    /// Pastes `text` as a terminal does (`paste-buffer -p`: between bracketed-paste markers when
    /// the app asked for them; line ends as carriage returns, as a terminal sends them). The app
    /// asks for them: one key.
    public func paste(_ text: String, target: String? = nil) throws {
        try count(1, sentTo: target)
        try tmux(["set-buffer", "-b", "test-paste", "--", text])
        try tmux(["paste-buffer", "-p", "-b", "test-paste", "-t", target ?? name])
    }

    /// A tmux format of the pane (`#{mouse_any_flag}`), as `display -p` prints it.
    public func display(_ format: String, target: String? = nil) throws -> String {
        try tmux(["display", "-p", "-t", target ?? name, format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Sends keys by tmux's names (`Enter`, `C-u`, `M-b`, `q`): each one key for the app.
    public func sendKeys(_ keys: String..., target: String? = nil) throws {
        try count(keys.count, sentTo: target)
        try tmux(["send-keys", "-t", target ?? name] + keys)
    }

    public func capture(target: String? = nil) throws -> String {
        try tmux(["capture-pane", "-p", "-t", target ?? name])
    }

    /// The pane `target` names now (a session or window names its active pane).
    private func paneID(_ target: String?) throws -> String {
        try display("#{pane_id}", target: target)
    }

    private func count(_ keys: Int, sentTo target: String?) throws {
        let pane = try paneID(target)
        lock.withLock { keysSent[pane, default: 0] += keys }
    }

    /// Waits until the app in the pane has handled every key sent to it and the pane shows the
    /// screen the app drew then (its idle file), and returns that screen: what a check that a
    /// key did NOT do something looks at, instead of a capture after a timeout.
    ///
    /// - Throws: ``PollTimeout`` with the keys sent and handled and both screens when the app
    ///   never got there.
    @discardableResult
    public func waitForIdle(target: String? = nil, timeout: TimeInterval = Poll.defaultTimeout) throws -> String {
        let pane = try paneID(target)
        let (file, sent) = lock.withLock { (idleFiles[pane], keysSent[pane, default: 0]) }
        guard let file else { throw TmuxPaneWithoutIdleFile(pane: pane) }
        let (_, screen) = try Poll.until(
            timeout: timeout,
            reading: { (IdleFile(path: file), try capture(target: pane)) },
            { report, screen in
                let reported = report.map { "\($0.keys) keys handled, this screen drawn:\n\($0.screen)" } ?? "nothing"
                return
                    "the app in pane \(pane) idle after \(sent) keys; it reported \(reported)\n"
                    + "the pane shows:\n\(screen)"
            }
        ) { report, screen in
            guard let report, report.keys >= sent else { return false }
            return report.screen == IdleFile.normalized(screen)
        }
        return screen
    }

    /// Captures the pane until `condition` holds, and returns that capture.
    ///
    /// The default timeout is ``Poll/defaultTimeout``: a wait ends as soon as its condition
    /// holds. A check that something does NOT happen waits for the app to be idle
    /// (``waitForIdle(target:)``), not for a timeout.
    ///
    /// A screen is returned only once a second capture, taken right after, shows the same: a
    /// capture taken while tmux was still drawing a frame (the text waited for there, the rest
    /// of the frame not yet) holds the condition but not what the test reads next.
    ///
    /// - Throws: ``PollTimeout`` with the last capture when the condition never held: the test
    ///   fails there, not at a later check that reads a screen the wait gave up on.
    @discardableResult
    public func waitFor(
        timeout: TimeInterval = Poll.defaultTimeout, target: String? = nil, _ condition: (String) -> Bool
    ) throws -> String {
        try Poll.until(
            timeout: timeout, every: 0.05, reading: { try capture(target: target) },
            { "a screen of pane \(target ?? name) as the test expects; the last one:\n\($0)" }
        ) { screen in
            try condition(screen) && capture(target: target) == screen
        }
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

/// ``TmuxSession/waitForIdle(target:timeout:)`` on a pane the session did not open.
struct TmuxPaneWithoutIdleFile: Error, CustomStringConvertible {
    let pane: String
    var description: String { "pane \(pane) was not opened by this TmuxSession: it has no idle file" }
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
