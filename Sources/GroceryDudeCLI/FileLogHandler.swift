import Foundation
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// A swift-log handler that appends one line per message to a file.
///
/// Each line is one `write` on a file opened with `O_APPEND`, so several processes of one
/// device (the app and a command in another terminal) can log to the same file.
struct FileLogHandler: LogHandler {
    private let fd: Int32
    private let label: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level

    init(fd: Int32, label: String, level: Logger.Level) {
        self.fd = fd
        self.label = label
        self.logLevel = level
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let details =
            merged.isEmpty
            ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let text =
            "\(Date().formatted(.iso8601)) [\(getpid())] \(event.level.rawValue.uppercased()) \(label): \(event.message)\(details)\n"
        _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
    }
}

/// Sends the process's logs to the device's log file, never to the terminal.
enum LogSetup {
    nonisolated(unsafe) private static var bootstrapped = false

    /// Once per process: the first device opened receives the process's logs.
    static func bootstrap(file: URL, level: Logger.Level, device: String) throws -> Logger {
        if !bootstrapped {
            let fd = open(file.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            guard fd >= 0 else {
                throw ValidationErrorMessage(
                    "cannot write the log file \(file.path): \(String(cString: strerror(errno)))")
            }
            bootstrapped = true
            LoggingSystem.bootstrap { label in FileLogHandler(fd: fd, label: label, level: level) }
        }
        var logger = Logger(label: "grocery-dude")
        logger[metadataKey: "device"] = "\(device)"
        return logger
    }
}

/// An error whose description is the whole message.
struct ValidationErrorMessage: Error, CustomStringConvertible, LocalizedError {
    let description: String
    init(_ description: String) { self.description = description }
    var errorDescription: String? { description }
}
