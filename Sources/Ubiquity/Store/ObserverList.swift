import Foundation

/// Callbacks registered from any thread and called with each new value, on the thread that
/// produced it.
final class ObserverList<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [(Value) -> Void] = []

    func add(_ observer: @escaping (Value) -> Void) {
        lock.withLock { observers.append(observer) }
    }

    func notify(_ value: Value) {
        for observer in lock.withLock({ observers }) { observer(value) }
    }
}
