import CNCurses
import Foundation
import ViewModels

#if canImport(Glibc)
    import Glibc
#endif

/// Set by the signal handler; read by the input loop, which then leaves curses cleanly.
nonisolated(unsafe) private var terminationRequested: sig_atomic_t = 0

/// The terminal the app runs in: the one place that talks to ncurses. Only the UI thread uses it.
public final class CursesBackend: TerminalBackend {
    private var colors = false

    private let screen: OpaquePointer
    private var mouse = false
    /// The last click, to tell a double click (same cell, within ``doubleClickInterval``).
    private var lastClick: (x: Int, y: Int, at: Date)?
    static let doubleClickInterval: TimeInterval = 0.4

    /// Takes over the terminal: locale, curses mode, keypad, colours unless `NO_COLOR`, and
    /// SIGINT / SIGTERM handlers that end the session cleanly.
    ///
    /// - Throws: ``TerminalError/unknownTerminal(_:)`` when curses cannot drive `$TERM`
    ///   (`initscr` would print and exit instead).
    /// - Parameter mouse: whether to ask the terminal for the mouse (`--no-mouse` says no).
    public init(mouse: Bool = true) throws {
        if setlocale(LC_ALL, "") == nil || !String(cString: setlocale(LC_CTYPE, nil)).uppercased().contains("UTF") {
            setlocale(LC_ALL, "C.UTF-8")
        }
        guard let screen = gd_newterm_stdio() else {
            throw TerminalError.unknownTerminal(ProcessInfo.processInfo.environment["TERM"] ?? "")
        }
        self.screen = screen
        cbreak()
        noecho()
        nonl()
        keypad(gd_stdscr(), true)
        // Esc stays quick; Alt-letter arrives as Esc and the letter together, well within this.
        set_escdelay(25)
        // Pasted text comes between markers (bracketed paste): text, never keys.
        gd_write_raw(Self.bracketedPasteOn)
        // The mouse, as SGR reports (any position, no 223-column limit), read by the app itself.
        if mouse { gd_write_raw(Self.mouseOn) }
        self.mouse = mouse
        curs_set(0)
        wtimeout(gd_stdscr(), 0)
        if has_colors() && ProcessInfo.processInfo.environment["NO_COLOR"].map({ $0.isEmpty }) ?? true {
            start_color()
            use_default_colors()
            init_pair(Int16(ColorRole.title.rawValue), Int16(COLOR_WHITE), Int16(COLOR_BLUE))
            init_pair(Int16(ColorRole.section.rawValue), Int16(COLOR_YELLOW), -1)
            init_pair(Int16(ColorRole.listed.rawValue), Int16(COLOR_GREEN), -1)
            init_pair(Int16(ColorRole.status.rawValue), Int16(COLOR_BLACK), Int16(COLOR_CYAN))
            init_pair(Int16(ColorRole.hint.rawValue), Int16(COLOR_CYAN), -1)
            init_pair(Int16(ColorRole.warning.rawValue), Int16(COLOR_YELLOW), -1)
            colors = true
        }
        terminationRequested = 0
        // A parent may have started us with these blocked (the mask is inherited): unblock them.
        var handled = sigset_t()
        sigemptyset(&handled)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&handled, signal) }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        signal(SIGINT) { _ in terminationRequested = 1 }
        signal(SIGTERM) { _ in terminationRequested = 1 }
        signal(SIGHUP) { _ in terminationRequested = 1 }
        // A crash (a trap, a bad pointer) gives the terminal back before the process dies, so the
        // shell is not left without echo in curses' mode. Then the signal's default: a core dump.
        for crash in Self.crashSignals {
            signal(crash) { received in
                endwin()
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }

    /// What a crashing Swift program receives: traps are SIGILL or SIGTRAP.
    static let crashSignals = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    static let bracketedPasteOn = "\u{1b}[?2004h"
    static let bracketedPasteOff = "\u{1b}[?2004l"
    /// Any-event tracking (1003: what tmux calls `mouse_any_flag`) in SGR form (1006).
    static let mouseOn = "\u{1b}[?1003h\u{1b}[?1006h"
    static let mouseOff = "\u{1b}[?1006l\u{1b}[?1003l"

    public func end() {
        gd_write_raw(Self.bracketedPasteOff)
        if mouse { gd_write_raw(Self.mouseOff) }
        curs_set(1)
        endwin()
        delscreen(screen)
        for handled in [SIGINT, SIGTERM, SIGHUP] + Self.crashSignals { signal(handled, SIG_DFL) }
    }

    public var size: (width: Int, height: Int) { (Int(gd_cols()), Int(gd_lines())) }

    /// SIGINT, SIGTERM or SIGHUP.
    public var isTerminationRequested: Bool { terminationRequested != 0 }

    /// Changes only what differs from the screen (curses' own diffing).
    public func draw(_ buffer: ScreenBuffer) {
        werase(gd_stdscr())
        for (y, row) in buffer.cells.enumerated() {
            var x = 0
            while x < row.count {
                let style = row[x].style
                var run = ""
                var end = x
                while end < row.count, row[end].style == style {
                    if !row[end].isContinuation { run.append(row[end].character) }
                    end += 1
                }
                let attributes = attributes(for: style)
                wattr_on(gd_stdscr(), attr_t(attributes), nil)
                // Writing the bottom-right cell scrolls some terminals: stop one short there.
                let text = (y == buffer.height - 1 && end == row.count) ? String(run.dropLast()) : run
                _ = text.withCString { mvwaddstr(gd_stdscr(), Int32(y), Int32(x), $0) }
                wattr_off(gd_stdscr(), attr_t(attributes), nil)
                x = end
            }
        }
        // The terminal's cursor in the field being typed in; hidden otherwise.
        if let cursor = buffer.cursor {
            curs_set(1)
            wmove(gd_stdscr(), Int32(cursor.row), Int32(cursor.column))
        } else {
            curs_set(0)
        }
        wrefresh(gd_stdscr())
    }

    public func invalidate() {
        clearok(gd_stdscr(), true)
    }

    public func waitForInput(wake: WakePipe?, milliseconds: Int32) -> Bool {
        var descriptors = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
        if let wake { descriptors.append(pollfd(fd: wake.readFD, events: Int16(POLLIN), revents: 0)) }
        let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        return ready > 0 && descriptors[0].revents != 0
    }

    public func readKey() -> Key? {
        guard let read = readCode() else { return nil }
        if case .scalar(27) = read { return readEscape() }
        return Self.key(read)
    }

    /// What `wget_wch` gives: a character, or a key curses decoded.
    enum Code: Equatable {
        case scalar(UInt32)
        case keyCode(Int32)
    }

    /// The next code already typed, without waiting; `nil` when there is none.
    private func readCode() -> Code? {
        var value: wint_t = 0
        let result = wget_wch(gd_stdscr(), &value)
        if result == KEY_CODE_YES { return .keyCode(Int32(value)) }
        return result == OK ? .scalar(UInt32(value)) : nil
    }

    /// After Esc: what came with it. Nothing: Esc itself. A character: Alt and it (terminals
    /// send Alt-d as Esc d). `[200~`: a paste, read to its end marker. Any other sequence curses
    /// did not decode: read whole and dropped, as a key that means nothing.
    private func readEscape() -> Key? {
        guard let next = readCode() else { return .escape }
        switch next {
        case .scalar(91):  // "["
            var parameters = ""
            var lastFinal: Character = " "
            while let code = readCode(), case .scalar(let value) = code, let scalar = Unicode.Scalar(value) {
                // Parameters and intermediates, then one final byte.
                guard (0x20...0x3f).contains(value) else {
                    lastFinal = Character(scalar)
                    break
                }
                parameters.unicodeScalars.append(scalar)
            }
            if parameters == "200" { return .paste(readPaste()) }
            if parameters.hasPrefix("<") { return mouseEvent(parameters, final: lastFinal) }
            return .unknown
        case .scalar(79):  // "O": one more byte
            _ = readCode()
            return .unknown
        case .scalar(27):
            _ = unget_wch(27)  // Esc Esc: two Escs
            return .escape
        case .scalar(127), .scalar(8):
            return Key.altBackspace
        case .scalar(let value):
            guard value >= 32, let scalar = Unicode.Scalar(value) else { return .unknown }
            return .alt(Character(scalar))
        case .keyCode(let value):
            // Esc, then a key curses decoded (an arrow, a resize): both count.
            _ = ungetch(value)
            return .escape
        }
    }

    /// An SGR mouse report, `<button;column;line` and `M` (press) or `m` (release): a click
    /// (the left button pressed; twice on one cell quickly, a double click), the wheel. Motion,
    /// releases and other buttons mean nothing here.
    private func mouseEvent(_ parameters: String, final: Character) -> Key? {
        let numbers = parameters.dropFirst().split(separator: ";").compactMap { Int($0) }
        guard numbers.count == 3, final == "M" else { return nil }
        let (button, x, y) = (numbers[0], numbers[1] - 1, numbers[2] - 1)
        switch button {
        case 64: return .mouse(MouseEvent(.wheelUp, x: x, y: y))
        case 65: return .mouse(MouseEvent(.wheelDown, x: x, y: y))
        case 0:
            let now = Date()
            if let last = lastClick, last.x == x, last.y == y, now.timeIntervalSince(last.at) < Self.doubleClickInterval
            {
                lastClick = nil
                return .mouse(MouseEvent(.doubleClick, x: x, y: y))
            }
            lastClick = (x, y, now)
            return .mouse(MouseEvent(.click, x: x, y: y))
        default:
            return nil  // motion, other buttons: nothing to say
        }
    }

    /// The pasted text up to the end marker (Esc [ 2 0 1 ~), waiting briefly for the rest of a
    /// long paste; line ends as "\n".
    private func readPaste() -> String {
        let endMarker: [UInt32] = [27, 91, 50, 48, 49, 126]
        var scalars: [UInt32] = []
        wtimeout(gd_stdscr(), 200)
        defer { wtimeout(gd_stdscr(), 0) }
        while let code = readCode() {
            guard case .scalar(let value) = code else {
                if case .keyCode(KEY_ENTER) = code { scalars.append(10) }
                continue
            }
            scalars.append(value)
            if scalars.count >= endMarker.count, Array(scalars.suffix(endMarker.count)) == endMarker {
                scalars.removeLast(endMarker.count)
                break
            }
        }
        var text = String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init)))
        text = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return text
    }

    /// A code that is not Esc as a key.
    static func key(_ code: Code) -> Key? {
        if case .keyCode(let value) = code {
            if (gd_key_f(1)...gd_key_f(24)).contains(value) { return .function(Int(value - gd_key_f(0))) }
            switch value {
            case KEY_UP: return .up
            case KEY_DOWN: return .down
            case KEY_LEFT: return .left
            case KEY_RIGHT: return .right
            case KEY_BTAB: return .backTab
            case KEY_DC: return .delete
            case KEY_PPAGE: return .pageUp
            case KEY_NPAGE: return .pageDown
            case KEY_HOME: return .home
            case KEY_END: return .end
            case KEY_ENTER: return .enter
            case KEY_BACKSPACE: return .backspace
            case KEY_RESIZE: return .resize
            case KEY_IC: return .insert
            default: return .unknown
            }
        }
        guard case .scalar(let value) = code, let scalar = Unicode.Scalar(value) else { return nil }
        switch scalar.value {
        case 13, 10: return .enter
        case 9: return .tab
        case 27: return .escape
        case 127, 8: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(scalar.value + 96)!))
        default: return .character(Character(scalar))
        }
    }

    private func attributes(for style: CellStyle) -> Int32 {
        var attributes: Int32 = 0
        if style.bold { attributes |= gd_a_bold() }
        if style.dim { attributes |= gd_a_dim() }
        if colors, style.color != .normal {
            attributes |= gd_color_pair(Int32(style.color.rawValue))
            // With colours the title and status bars are coloured, not reversed.
            if style.color == .title || style.color == .status { return attributes }
        }
        if style.reverse { attributes |= gd_a_reverse() }
        return attributes
    }
}

/// Why the terminal cannot be used.
public enum TerminalError: Error, CustomStringConvertible, LocalizedError {
    case unknownTerminal(String)

    public var description: String {
        switch self {
        case .unknownTerminal(let term):
            "cannot drive the terminal type \(term.isEmpty ? "(TERM is not set)" : term.debugDescription); set TERM to one your system knows, such as xterm-256color"
        }
    }

    public var errorDescription: String? { description }
}
