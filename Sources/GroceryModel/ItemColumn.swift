/// The item table's columns as ``Item/selection(table:modelVersion:)`` selects them. The SELECT
/// is made from this list, in its order, so a case's raw value is the column's index in the
/// statement: the readers that go by index (SQLite's fast path, with no lookup of a name per
/// row) cannot misread a reordered list, since the SELECT is reordered with it.
enum ItemColumn: CInt, CaseIterable {
    case id, name, quantity, listed, collected, modified, unit, locationAtHome, locationAtShop, photo
    /// Model version 2 and later. Last, so that the columns before it have the same indexes in
    /// a version 1 store's selection, which leaves it out.
    case note

    /// The column's name in the item table. Spelled out: interpolating the case (`"\(self)"`) asked
    /// the Swift runtime whether the type conforms to three protocols (each first question a walk
    /// over every conformance record of the binary) and read the case's name by reflection, at the
    /// start of every command that reads items (docs/decisions/0171).
    var sqlName: String {
        switch self {
        case .id: "id"
        case .name: "name"
        case .quantity: "quantity"
        case .listed: "listed"
        case .collected: "collected"
        case .modified: "modified"
        case .unit: "unit"
        case .locationAtHome: "locationAtHome"
        case .locationAtShop: "locationAtShop"
        case .photo: "photo"
        case .note: "note"
        }
    }

    /// The column's index in a statement that selects the item's columns from `offset` on.
    func index(from offset: Int = 0) -> Int { offset + Int(rawValue) }

    /// The columns a store of `modelVersion` has, in the order they are selected.
    static func selected(modelVersion: Int) -> [ItemColumn] {
        modelVersion >= 2 ? allCases : allCases.filter { $0 != .note }
    }
}
