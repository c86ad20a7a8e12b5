import Foundation
import GroceryModel
import Ubiquity

/// What the household files of a list say now, as this device judges them: who claimed which
/// item, who is shopping where, and the files refused.
public struct HouseholdView: Equatable, Sendable {
    /// The claims that hold now, by item.
    public var claims: [ItemID: ItemClaim] = [:]
    /// The people shopping now (this device's too), by person then device.
    public var shoppers: [Shopper] = []
    /// Household files refused (each ignored alone: nothing waits on them).
    public var refused: [RefusedCloudFile] = []

    public init() {}

    /// The person who claimed the item, when a claim holds.
    public func claimedBy(_ item: ItemID) -> String? { claims[item]?.person }

    /// Those shopping on other devices: what a status line says.
    public var othersShopping: [Shopper] { shoppers.filter { !$0.isThisDevice } }
}

/// "I'll get it": a person's claim on an item that holds now.
public struct ItemClaim: Equatable, Sendable {
    public var item: ItemID
    /// The item's name when it was claimed.
    public var itemName: String
    public var person: String
    public var device: String
    public var peer: String
    public var isThisDevice: Bool
    /// The claim's clock reading, which orders it against the item's changes and other claims.
    public var reading: HLC
}

/// A person shopping now.
public struct Shopper: Equatable, Sendable {
    public var person: String
    public var device: String
    public var peer: String
    /// The shop's name, or nil for no shop in particular.
    public var shop: String?
    /// When the writer says the shopping began.
    public var since: Date
    public var isThisDevice: Bool

    /// "Ben is shopping at Aldi", "Ben is shopping".
    public var summary: String {
        "\(person) is shopping" + (shop.map { " at \($0)" } ?? "")
    }
}

/// What a claim or presence command cannot do.
public enum HouseholdError: Error, Equatable, CustomStringConvertible {
    /// Claims and presence travel through the cloud folder: cloud sync is off.
    case notSyncing
    /// The cloud folder cannot be used now.
    case offline(String)
    case notListed(String)
    case collected(String)
    case notClaimed(String)

    public var description: String {
        switch self {
        case .notSyncing:
            "claims and shopping travel through the cloud folder, and cloud sync is off on this device"
        case .offline(let reason): "the cloud folder cannot be used now (\(reason)): nothing was written"
        case .notListed(let name):
            "\(name.debugDescription) is not on the shopping list: only a listed item can be claimed"
        case .collected(let name): "\(name.debugDescription) is already collected: nothing left to get"
        case .notClaimed(let name): "nobody has claimed \(name.debugDescription)"
        }
    }
}
