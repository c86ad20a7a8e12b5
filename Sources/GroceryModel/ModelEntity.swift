/// An entity of the model whose objects screens and commands name by ID: the type parameter of
/// ``EntityID``. Its subclasses are never made: they only tell IDs apart.
///
/// A class, not a protocol: `EntityID<ItemEntity>`'s type metadata, made the first time a command
/// meets the type, checks its parameter against the requirement. A protocol requirement is looked
/// up in the binary's list of every conformance (about 25 µs each time, once per entity); a
/// superclass requirement is a walk up the class's own chain.
public class ModelEntity {
    /// The entity's name in the model (``GrocerySchema/Entity``).
    public class var name: String { preconditionFailure("every entity names itself") }
}

/// Grocery items.
public final class ItemEntity: ModelEntity { override public class var name: String { GrocerySchema.Entity.item } }
/// Units ("L", "kg").
public final class UnitEntity: ModelEntity { override public class var name: String { GrocerySchema.Entity.unit } }
/// Where items are kept at home.
public final class HomeLocationEntity: ModelEntity {
    override public class var name: String { GrocerySchema.Entity.locationAtHome }
}
/// The shop's aisles.
public final class ShopLocationEntity: ModelEntity {
    override public class var name: String { GrocerySchema.Entity.locationAtShop }
}
/// Shops (model version 3).
public final class ShopEntity: ModelEntity { override public class var name: String { GrocerySchema.Entity.shop } }
/// An aisle of any shop: the default shop's are the book's shop aisles (`LocationAtShop`),
/// another shop's are `ShopAisle`s. The ID tells them apart from items and shops, not from
/// each other: the shop an aisle belongs to says which it is.
public final class AisleEntity: ModelEntity {
    override public class var name: String { GrocerySchema.Entity.shopAisle }
}
/// Items' photos.
public final class PhotoEntity: ModelEntity {
    override public class var name: String { GrocerySchema.Entity.itemPhoto }
}

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
