import Ubiquity

/// A save's operations on objects named by typed IDs: the entity comes from the ID's type, so
/// the model's code cannot update a unit under the item entity.
extension SaveContext {
    /// Inserts an object of `entity`; returns its new ID.
    func insert<Entity>(_ entity: Entity.Type, values: [String: PropertyValue]) throws -> EntityID<Entity> {
        EntityID(try insert(Entity.name, values: values))
    }

    /// The object's current values; `nil` when it is not in the store.
    func values<Entity>(of id: EntityID<Entity>) throws -> [String: PropertyValue]? {
        try values(of: Entity.name, id: id.globalID)
    }

    /// Sets some of the object's values.
    func update<Entity>(_ id: EntityID<Entity>, values: [String: PropertyValue]) throws {
        _ = try update(Entity.name, id: id.globalID, values: values)
    }

    /// Deletes the object.
    func delete<Entity>(_ id: EntityID<Entity>) throws {
        try delete(Entity.name, id: id.globalID)
    }
}
