import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Turns the signals into a flag and a call, so that a loop can stop between two rounds
/// instead of the process dying in the middle of one.
final class StopSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var sources: [DispatchSourceSignal] = []

    init(_ signals: [Int32], then: @escaping @Sendable () -> Void) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                // A second signal while the first is being honoured (a long merge, a baseline
                // being written) ends the process at once, as it would without this handler.
                if lock.withLock({
                    defer { stopped = true }
                    return stopped
                }) {
                    signal(number, SIG_DFL)
                    raise(number)
                }
                then()
            }
            source.resume()
            sources.append(source)
        }
    }

    var requested: Bool { lock.withLock { stopped } }
}
