import Foundation
import TextAndFiles

/// Publishes a store's saves after they are made: on the saving thread for a command, which
/// ends once its change is published; on a queue of its own for the app, whose saves are made
/// on the UI thread and must never wait for the cloud folder (a slow or hung network mount).
///
/// Saves made while an export runs are taken by the next one: at most one export waits behind
/// the one under way.
final class SaveExporter: Sendable {
    private let export: @Sendable () -> Void
    private let background: CoalescedWork?

    init(inBackground: Bool, export: @escaping @Sendable () -> Void) {
        self.export = export
        background =
            inBackground ? CoalescedWork(queue: DispatchQueue(label: "grocery-dude.export", qos: .utility)) : nil
    }

    /// After a save: exports now, or schedules an export.
    func saved() {
        guard let background else { return export() }
        background.request(export)
    }
}
