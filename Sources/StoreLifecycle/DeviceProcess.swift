import Foundation
import Ubiquity

/// What the program running a device sets up once and undoes once: the crash point the fault
/// tests ask for, where a wait for another writer is told, and the stores closed at exit.
public enum DeviceProcess {
    /// Reads, once at launch, the crash point the fault tests name in the environment variable
    /// `name` (unset: none).
    public static func readFaultRequest(fromEnvironmentVariable name: String) {
        FaultInjection.readRequest(fromEnvironmentVariable: name)
    }

    /// The full-screen app's crash point, after its first frame, when the fault tests ask for
    /// it: the app traps there (a crash of the program itself, so that its crash handler runs).
    public static var requestedAppTrap: String? {
        FaultInjection.isRequested(FaultInjection.appTrap) ? FaultInjection.appTrap : nil
    }

    /// Where a write that waits for another process holding the store says so, after about a
    /// second ("waiting for …, which is writing to the store …").
    public static func onWaitingForWriter(_ tell: @escaping @Sendable (String) -> Void) {
        StoreWriter.onWaiting = tell
    }

    /// Closes every store this process opened, which moves SQLite's write-ahead log into the
    /// store file.
    public static func closeAllStores() {
        OpenStores.closeAll()
    }
}
