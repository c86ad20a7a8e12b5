/// The item table's columns as ``Item/selection(table:modelVersion:)`` selects them. The SELECT
/// is made from this list, in its order, so a case's raw value is the column's index in the
/// statement: the readers that go by index (SQLite's fast path, with no lookup of a name per
/// row) cannot misread a reordered list, since the SELECT is reordered with it.
enum ItemColumn: CInt, CaseIterable {
    case id, name, quantity, listed, collected, modified, unit, locationAtHome, locationAtShop, photo
    /// Model version 2 and later. Last, so that the columns before it have the same indexes in
    /// a version 1 store's selection, which leaves it out.
    case note

    /// The column's name in the item table.
    var sqlName: String { "\(self)" }

    /// The column's index in a statement that selects the item's columns from `offset` on.
    func index(from offset: Int = 0) -> Int { offset + Int(rawValue) }

    /// The columns a store of `modelVersion` has, in the order they are selected.
    static func selected(modelVersion: Int) -> [ItemColumn] {
        modelVersion >= 2 ? allCases : allCases.filter { $0 != .note }
    }
}
