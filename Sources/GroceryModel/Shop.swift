import Foundation

/// A shop (model version 3): Aldi, Lidl, the corner shop — each with its own aisles in its own
/// walking order. The default shop holds the book's aisles.
public struct ShopEntry: Hashable, Sendable, Identifiable {
    public let id: ShopID
    public let name: String
    public let modified: Date
    public let aisleCount: Int

    /// The shop every store has, whose aisles are the book's (``GrocerySchema/defaultShopID``).
    public var isDefault: Bool { id == ShopID.defaultShop }
}

/// One aisle of one shop, with its place in the shop's walking order (``WalkingOrder``).
public struct AisleEntry: Hashable, Sendable, Identifiable {
    public let id: AisleID
    public let shop: ShopID
    public let name: String
    /// Set once the user moved it; `nil`: in natural order among the unmoved.
    public let position: Double?
    public let modified: Date
    /// How many items are found in this aisle.
    public let itemCount: Int
}

/// Where an item is found in one shop.
public struct ItemAisle: Hashable, Sendable {
    public let shop: String
    public let aisle: String
}

extension ShopID {
    /// The default shop (``GrocerySchema/defaultShopID``).
    public static let defaultShop = ShopID(GrocerySchema.defaultShopID)
}
