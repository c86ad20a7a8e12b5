import Logging

extension Logger {
    /// What the libraries log to unless given a logger: nothing. The app passes the device's
    /// file logger; a library never prints on its own.
    public static var silent: Logger { Logger(label: "silent") { _ in SwiftLogNoOpLogHandler() } }
}
