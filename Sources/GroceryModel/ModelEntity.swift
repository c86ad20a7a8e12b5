/// An entity of the model whose objects screens and commands name by ID: the type parameter of
/// ``EntityID``. The conforming types are empty: they only tell IDs apart.
public protocol ModelEntity: Sendable {
    /// The entity's name in the model (``GrocerySchema/Entity``).
    static var name: String { get }
}

/// Grocery items.
public enum ItemEntity: ModelEntity { public static var name: String { GrocerySchema.Entity.item } }
/// Units ("L", "kg").
public enum UnitEntity: ModelEntity { public static var name: String { GrocerySchema.Entity.unit } }
/// Where items are kept at home.
public enum HomeLocationEntity: ModelEntity { public static var name: String { GrocerySchema.Entity.locationAtHome } }
/// The shop's aisles.
public enum ShopLocationEntity: ModelEntity { public static var name: String { GrocerySchema.Entity.locationAtShop } }
/// Shops (model version 3).
public enum ShopEntity: ModelEntity { public static var name: String { GrocerySchema.Entity.shop } }
/// An aisle of any shop: the default shop's are the book's shop aisles (`LocationAtShop`),
/// another shop's are `ShopAisle`s. The ID tells them apart from items and shops, not from
/// each other: the shop an aisle belongs to says which it is.
public enum AisleEntity: ModelEntity { public static var name: String { GrocerySchema.Entity.shopAisle } }
/// Items' photos.
public enum PhotoEntity: ModelEntity { public static var name: String { GrocerySchema.Entity.itemPhoto } }

/// An item's identity: what screens keep to find an item again (the selected row, the item an
/// editor edits, the items an undo restores).
public typealias ItemID = EntityID<ItemEntity>
/// A unit's identity.
public typealias UnitID = EntityID<UnitEntity>
/// A home location's identity. Home locations and shop aisles are entities of their own.
public typealias HomeLocationID = EntityID<HomeLocationEntity>
/// A shop aisle's identity.
public typealias ShopLocationID = EntityID<ShopLocationEntity>
/// A shop's identity.
public typealias ShopID = EntityID<ShopEntity>
/// An aisle's identity, in any shop.
public typealias AisleID = EntityID<AisleEntity>
/// An item photo's identity.
public typealias PhotoID = EntityID<PhotoEntity>
