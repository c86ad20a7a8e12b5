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

    /// How many transactions the store has recorded.
    public func transactionCount() throws -> Int { try objects.outbox().count }

    /// Counts of items, units, home locations and shop aisles.
    public func counts() throws -> [Int] {
        [try items().count] + (try CatalogKind.allCases.map { try entries($0).count })
    }
}
