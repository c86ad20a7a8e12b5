import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// "pid command" in a lock file: who holds it, for the message of whoever waits.
public enum ProcessHolder {
    /// This process, as `ps` would show it: the program's name and its arguments (shortened).
    /// Made once: every export writes it into its lock.
    public static let thisProcess: String = {
        var words = ProcessInfo.processInfo.arguments
        if let program = words.first { words[0] = URL(fileURLWithPath: program).lastPathComponent }
        let line = words.joined(separator: " ")
        return line.count > 200 ? String(line.prefix(199)) + "…" : line
    }()

    public static func write(fd: Int32, command: String = thisProcess) {
        let text = "\(getpid()) \(command)\n"
        ftruncate(fd, 0)
        _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    public static func read(fd: Int32) -> (pid: Int32, command: String) {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = pread(fd, &buffer, buffer.count, 0)
        let text = count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        let parts = line.split(separator: " ", maxSplits: 1)
        let pid = parts.first.flatMap { Int32($0) } ?? 0
        let command = parts.count > 1 ? String(parts[1]) : "unknown command"
        return (pid, command)
    }
}
