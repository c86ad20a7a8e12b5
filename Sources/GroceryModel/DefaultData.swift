import Foundation
import GroceryResources
import Ubiquity

/// The groceries a new device starts with, shipped in `Resources/DefaultData.json` (the
/// project's own JSON format) and embedded in the binary — and their identity, the same on
/// every device: each shipped object has an ID derived from what it is (``id(_:named:)``) and
/// values dated and stamped with the shipped date and reading (``shippedDate``, ``reading``).
///
/// So two devices' default data are one set of objects: their copies merge property by
/// property, with no duplicates; and anything a user does to them is stamped later than the
/// shipped reading, so it wins over the shipped values on every device.
public enum DefaultData {
    public static func archive() throws -> GroceryArchive {
        try JSONArchiveCoder.decode(Data(GroceryResources.defaultDataJSON))
    }

    /// When the default data shipped — the app's first release, 2026-11-21 — and the
    /// modification date of every shipped object. Older than anything a user of the app did.
    /// Fixed for good, even when the shipped data changes: a later date would make a newer
    /// build's copy of an object win over users' earlier edits of it on other devices.
    public static let shippedDate = Date(timeIntervalSince1970: 1_795_219_200)

    /// The clock reading every shipped value carries: at ``shippedDate``, counter 0, and a peer
    /// name no device has. It sorts before every device's peer ID (lowercase UUIDs: `0-` comes
    /// before any two hex digits), so even an edit stamped in that very millisecond wins; and
    /// it ends with a hash of the shipped file, so that two builds shipping different values
    /// for one object order them alike on every device rather than each keeping its own.
    public static let reading = HLC(
        wall: Int64(shippedDate.timeIntervalSince1970 * 1000), counter: 0,
        peer: "0-default-data-" + SHA256.hex(GroceryResources.defaultDataJSON).prefix(16))

    /// The namespace of shipped objects' IDs (a random UUID, fixed for good: changing it would
    /// make every device's default data new objects).
    static let namespace = GlobalID("ee2f417f-1602-4f40-9a94-5c348b727314")!

    /// The ID of the shipped object of `entity` whose unique attribute is `name` (as shipped,
    /// in NFC): derived from them, so the same on every device and in every build.
    package static func id(_ entity: String, named name: String) -> GlobalID {
        GlobalID.derived(from: [entity, name], in: namespace)
    }
}
