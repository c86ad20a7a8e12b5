import Foundation
import GroceryModel
import Ubiquity

extension GroceryStore {
    /// A store in a temp folder with a test clock and sequential IDs; empty unless `defaultData`.
    public static func temporary(
        in directory: TemporaryDirectory,
        name: String = "store",
        modelVersion: Int = GrocerySchema.currentVersion,
        defaultData: Bool = false,
        clock: TestClock = TestClock(),
        ids: SequentialIDs = SequentialIDs()
    ) throws -> GroceryStore {
        try GroceryStore(
            path: directory.file("\(name).sqlite").path, modelVersion: modelVersion,
            defaultData: defaultData, clock: clock, ids: ids)
    }

    /// Adds `count` items named "Item 000001"…, spread over `locations` home locations
    /// ("Location 01"…), in one save through the engine: a big store, quickly.
    public func fill(items count: Int, locations: Int) throws {
        _ = try objects.save(author: "fill") { context in
            let homes = try (1...max(1, locations)).map { index in
                try context.insert(
                    GrocerySchema.Entity.locationAtHome,
                    values: ["storedIn": .string("Location " + String(index).leftPadded(to: 2))])
            }
            for index in 1...count {
                try context.insert(
                    GrocerySchema.Entity.item,
                    values: [
                        "name": .string("Item " + String(index).leftPadded(to: 6)), "quantity": .double(1),
                        "locationAtHome": .reference(homes[index % homes.count]),
                    ])
            }
        }
    }

    /// How many transactions the store has recorded.
    public func transactionCount() throws -> Int { try objects.outbox().count }

    /// Counts of items, units, home locations and shop aisles.
    public func counts() throws -> [Int] {
        [try items().count] + (try CatalogKind.allCases.map { try entries($0).count })
    }
}
