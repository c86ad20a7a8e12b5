import Foundation
import TextAndFiles

/// A shop's aisles in the order its shopper walks them.
///
/// Only an aisle the user moved has a position (a number). Every aisle has a rank, 1, 2, 3 …
/// in natural order of the names of all the shop's aisles (Aisle 2 before Aisle 10); an aisle
/// nobody moved is placed at its rank, a moved one at its position, which lies between the
/// places of the two aisles it was moved between. A move writes one number, the moved aisle's:
/// two devices moving two aisles at once each write their own aisle's position, and the merge,
/// property by property, keeps both moves. Ranks count moved aisles too, so a move changes no
/// other aisle's place, and a move made elsewhere does not shift the places a move here was
/// made between. A new aisle has no position: it lands in natural order among the unmoved
/// (the aisles after it in natural order move one rank on, moved ones keep their number).
public enum WalkingOrder {
    /// Where a move puts an aisle.
    public enum Move: Sendable, Equatable {
        case first, last
        /// Just before another aisle (its name or a prefix of its ID).
        case before(String)
        /// Just after another aisle.
        case after(String)
    }

    /// `aisles` in walking order, each with its place: its position when moved, else its rank.
    /// Ties (moves made at once) go unmoved first, then by name, then ID.
    static func ordered<Aisle>(
        _ aisles: [Aisle], id: (Aisle) -> String, name: (Aisle) -> String, position: (Aisle) -> Double?
    ) -> [(aisle: Aisle, place: Double)] {
        // NameOrder starts from the order SQL gives names (case ignored), ties by ID.
        let byName = aisles.sorted { (name($0).lowercased(), id($0)) < (name($1).lowercased(), id($1)) }
        let natural = NameOrder.naturallySorted(NameOrder.sorted(byName, name: name), name: name)
        var placed = natural.enumerated().map { rank, aisle in
            (aisle: aisle, place: position(aisle) ?? Double(rank + 1), moved: position(aisle) != nil)
        }
        placed.sort { a, b in
            if a.place != b.place { return a.place < b.place }
            if a.moved != b.moved { return !a.moved }
            let (first, second) = (TextFolding.fold(name(a.aisle)), TextFolding.fold(name(b.aisle)))
            if first != second { return first < second }
            return id(a.aisle) < id(b.aisle)
        }
        return placed.map { ($0.aisle, $0.place) }
    }

    /// The position that puts an aisle at `index` among the places of the others, in order:
    /// halfway between its neighbours, one before the first or after the last. `nil` when no
    /// number lies between the two (after some fifty moves into one gap): the caller numbers
    /// the whole shop again.
    static func position(at index: Int, among places: [Double]) -> Double? {
        guard !places.isEmpty else { return 1 }
        if index <= 0 { return places[0] - 1 }
        if index >= places.count { return places[places.count - 1] + 1 }
        let (low, high) = (places[index - 1], places[index])
        let middle = low + (high - low) / 2
        return low < middle && middle < high ? middle : nil
    }
}
