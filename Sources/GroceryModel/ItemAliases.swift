/// The IDs items came back under: a deleted item that undo or redo brings back is a new object
/// (a delete is final on every device), so the ID a screen kept for it leads, through one or
/// more of these, to the ID it goes by now.
public struct ItemAliases: Sendable {
    private var next: [ItemID: ItemID] = [:]

    public init() {}

    /// The ID the item first known as `id` goes by now.
    public func current(_ id: ItemID) -> ItemID {
        var id = id
        while let later = next[id], later != id { id = later }
        return id
    }

    /// Notes that the item known as `id` came back as `new`.
    mutating func add(_ id: ItemID, cameBackAs new: ItemID) {
        next[id] = new
    }

    /// Forgets every alias.
    public mutating func removeAll() {
        next.removeAll()
    }
}
