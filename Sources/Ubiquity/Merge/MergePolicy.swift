/// Decides, per property, whether an imported value replaces the stored one: the hook that
/// `NSMergePolicy` subclasses were. The default is per-property last-writer-wins by clock.
///
/// A policy must decide the same way on every peer (use only its arguments), or peers will not
/// converge. It also decides which copy's value a property keeps when copies merge
/// (``MergedCopies``) on import; a deduplication on this device folds with ``LastWriterWins``.
public protocol MergePolicy: Sendable {
    func importedValueWins(entity: String, property: String, stored: HLC, imported: HLC) -> Bool
}

/// Per-property last-writer-wins: the later clock reading wins; ties cannot happen, as a reading
/// ends with its peer.
public struct LastWriterWins: MergePolicy {
    public init() {}

    public func importedValueWins(entity: String, property: String, stored: HLC, imported: HLC) -> Bool {
        imported > stored
    }
}
