import Foundation
import GroceryModel
import TextAndFiles

/// Store transitions, and what changes elsewhere: untouched fields follow the store, touched ones stay.
extension ItemEditorViewModel {
    /// `storesWillChange`: the edits are saved while the old store is still there; input is off.
    public func storeWillChange() {
        if hasUnsavedChanges { save() }
        picker = nil
        namingNewEntry = nil
        dialog = nil
        binding.willChange()
    }

    /// The change announced waits (this editor could not save): editing goes on.
    public func storeChangePostponed() {
        binding.changePostponed()
    }

    /// `storesDidChange`: the item is looked up by its global ID in the new store; without it
    /// there, the editor closes.
    public func storeDidChange(to store: GroceryStore) {
        binding.didChange(to: store)
        if (try? store.item(id: id)) == nil {
            closedBecause = "\(values[.name] ?? "The item") is not in this store"
            return
        }
        refreshIfChanged()
    }

    /// An import that changed this item (or another) reached the app: the remote changes it
    /// brought are told as coming from `devices`. The store may show the import before its
    /// message arrives (the import commits, then posts), so a change already marked takes the
    /// names now; one not yet read is read with them.
    public func noteImport(by devices: [String], changedThisItem: Bool) {
        guard changedThisItem else {
            refreshIfChanged()
            return
        }
        let names = devices.isEmpty ? Self.unknownDevice : devices.sorted().joined(separator: ", ")
        for field in unattributed { remoteChanges[field]?.by = names }
        unattributed.removeAll()
        refreshIfChanged(attributingTo: names)
    }

    static let unknownDevice = "another device"

    /// Takes in what changed in the store: untouched fields follow it, touched ones stay.
    ///
    /// - Parameter attributingTo: who made the changes read now, when known (an import's
    ///   devices); otherwise they are marked as another device's until the import's message.
    @discardableResult
    public func refreshIfChanged(attributingTo devices: String? = nil) -> Bool {
        guard isOpen, let token = try? binding.tokenIfChanged() else { return false }
        binding.fetched(token)
        do {
            guard let row = try store.item(id: id) else {
                closedBecause = "\(values[.name] ?? "The item") was deleted on another device"
                return true
            }
            let earlier = stored
            stored = Self.fields(of: row)
            if editsAnotherShop { stored[.shopLocation] = try store.aisleName(of: id, in: shop) ?? "" }
            for field in Field.allCases where !touched.contains(field) { values[field] = stored[field] }
            // A field being edited that changed elsewhere: marked, never overwritten unseen.
            for field in touched where !earlier.isEmpty && earlier[field] != stored[field] {
                if stored[field] == values[field] {
                    remoteChanges[field] = nil
                    unattributed.remove(field)
                } else {
                    remoteChanges[field] = RemoteChange(
                        value: stored[field] ?? "", by: devices ?? Self.unknownDevice, at: row.item.modified)
                    if devices == nil { unattributed.insert(field) } else { unattributed.remove(field) }
                }
            }
            photoSize = row.photoSize
            // The history is a scan of the device's history (on this, the UI thread): read again
            // only when the item changed, not at every change of the store.
            if row.item != historyRead {
                historyRead = row.item
                readHistory()
            }
            return true
        } catch {
            message = "Cannot read the item: \(ErrorText.reason(error))"
            return false
        }
    }
}
