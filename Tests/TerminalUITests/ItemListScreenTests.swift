import Foundation
import GroceryModel
import Testing
import TestSupport
import ViewModels
@testable import TerminalUI

@Suite("Snapshots of the simple item list")
struct ItemListScreenTests {
    let directory = TemporaryDirectory("screen")

    func model(items: [(String, Double, String?, String?, Bool)]) throws -> ItemListViewModel {
        let store = try GroceryStore.temporary(in: directory)
        for (name, quantity, unit, home, listed) in items {
            var draft = ItemDraft(name: name)
            draft.quantity = quantity
            draft.unit = unit
            draft.homeLocation = home
            draft.listed = listed
            try store.addItem(draft)
        }
        let model = ItemListViewModel(store: store, device: "kitchen")
        model.refreshIfChanged()
        return model
    }

    static let groceries: [(String, Double, String?, String?, Bool)] = [
        ("Milk", 2, "L", "Fridge", true),
        ("牛乳 (Japanese milk)", 1, nil, "冷蔵庫", false),
        ("Bread 🍞", 1, nil, nil, true),
        ("Flour", 1.5, "kg", "Pantry", false),
    ]

    @Test func at80x24() throws {
        let screen = ItemListScreen.render(try model(items: Self.groceries), width: 80, height: 24)
        #expect(screen.lines[0].hasPrefix(" Grocery Dude  "))
        #expect(screen.lines[0].hasSuffix("  4 items, 2 listed · kitchen "))
        let expected = [
            " Fridge",
            "  [x] 2 L Milk",
            " Pantry",
            "  [ ] 1.5 kg Flour",
            " 冷蔵庫",
            "  [ ] 牛乳 (Japanese milk)",
            " Unknown location",
            "  [x] Bread 🍞",
        ]
        for (index, line) in expected.enumerated() {
            #expect(screen.lines[index + 1].trimmingTrailingSpaces == line, "line \(index + 1)")
        }
        #expect(screen.lines[9...22].allSatisfy { $0.trimmingTrailingSpaces.isEmpty })
        #expect(screen.lines[23].hasPrefix(" ↑↓/jk move  Space list/unlist  q quit"))
        #expect(screen.cells[2][0].style.reverse, "the first row is selected")
        #expect(screen.lines.allSatisfy { TextWidth.columns(of: $0) == 80 })
    }

    @Test func at40x10ScrollingKeepsTheSelectionVisible() throws {
        let many = (1...30).map { (String(format: "Item %02d", $0), 1.0, nil as String?, "Pantry" as String?, false) }
        let model = try model(items: many)
        model.setViewport(height: 8)  // what the app does before drawing at 40×10
        model.moveSelection(to: 20)
        let screen = ItemListScreen.render(model, width: 40, height: 10)
        #expect(screen.lines.count == 10)
        #expect(screen.lines.allSatisfy { TextWidth.columns(of: $0) == 40 })
        let selectedLine = try #require((1..<9).first { screen.cells[$0][2].style.reverse })
        #expect(screen.lines[selectedLine].contains("Item 21"))
        #expect((1...8).contains(selectedLine))
        #expect(screen.lines[0].hasPrefix(" Grocery Dude"))
    }

    @Test func aTooSmallTerminalSaysSo() throws {
        let screen = ItemListScreen.render(try model(items: Self.groceries), width: 30, height: 8)
        #expect(screen.lines.contains { $0.contains("Terminal too small") })
        #expect(screen.lines.contains { $0.contains("need 40×10") })
    }

    @Test func anEmptyStoreExplainsHowToAdd() throws {
        let screen = ItemListScreen.render(try model(items: []), width: 80, height: 24)
        #expect(screen.lines[2].contains("No items. Add some with: grocery-dude item add NAME"))
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
