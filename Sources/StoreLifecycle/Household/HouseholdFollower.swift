import Foundation

/// The running app's side of the household files, on a thread of its own (the screens never
/// read the cloud folder, which a hung mount would freeze): every ``interval`` it reads what
/// the claims and presence say (``latest``) and wakes the app when that changed; while the app
/// says this device is shopping (Shop open), it keeps the device's presence fresh, a refreshed
/// note every minute, and writes "stopped" when the app says it is not, or stops.
final class HouseholdFollower: @unchecked Sendable {
    private let household: Household
    private let wake: @Sendable () -> Void
    private let lock = NSLock()
    private let signal = DispatchSemaphore(value: 0)
    private var view = HouseholdView()
    /// What the app wants: shopping (at a shop, or none), or not.
    private var wanted: Shopping?
    /// What this follower last wrote.
    private var written: Shopping?
    private var running = true
    private let done = DispatchSemaphore(value: 0)

    struct Shopping: Equatable {
        var shop: String?
    }

    /// How often the folders are read.
    static let interval: TimeInterval = 2

    init(household: Household, shopping: Shopping?, wake: @escaping @Sendable () -> Void) {
        self.household = household
        self.wake = wake
        self.wanted = shopping
    }

    /// What the files said at the last read.
    var latest: HouseholdView { lock.withLock { view } }

    func start() {
        let thread = Thread { [self] in
            while lock.withLock({ running }) {
                round()
                _ = signal.wait(timeout: .now() + Self.interval)
            }
            // Leaving: this device no longer shows as shopping.
            if written != nil { try? household.stopShopping() }
            done.signal()
        }
        thread.name = "household"
        thread.start()
    }

    /// Says whether this device is shopping now (the app's Shop screen is open), and where.
    func setShopping(_ shopping: Shopping?) {
        let changed = lock.withLock {
            defer { wanted = shopping }
            return wanted != shopping
        }
        if changed { signal.signal() }
    }

    /// Stops the thread, after it wrote "stopped" if this device was shopping.
    func stop() {
        lock.withLock { running = false }
        signal.signal()
        _ = done.wait(timeout: .now() + 5)
    }

    private func round() {
        let wanted = lock.withLock { self.wanted }
        do {
            if let wanted, wanted != written {
                try household.startShopping(at: wanted.shop, refreshed: true)
                written = wanted
            } else if wanted != nil {
                try household.refreshIfShopping()
            } else if written != nil {
                try household.stopShopping()
                written = nil
            }
        } catch {
            household.configuration.logger.warning("shopping note not written: \(error)")
        }
        let latest = household.read()
        let changed = lock.withLock {
            defer { view = latest }
            return view != latest
        }
        if changed { wake() }
    }
}
