import Foundation
import GRDB
import TestSupport
import Testing
import Ubiquity

@testable import GroceryModel

/// "Café" typed on two keyboards — a composed "é" (U+00E9) or "e" and a combining accent
/// (U+0301) — is one name: stored in one form, found, refused as a duplicate and searched alike.
/// Strings are built from explicit scalars, so this file's own normalization does not matter.
@Suite("One identity per name")
struct UnicodeNameTests {
    let directory = TemporaryDirectory("unicode-names")

    static let composed = "Caf\u{E9}"
    static let decomposed = "Cafe\u{301}"

    func scalars(_ text: String?) -> [UInt32] { (text ?? "").unicodeScalars.map(\.value) }

    /// An item saved as an older build or a peer would have: its name exactly as given.
    func insertAsIs(_ store: GroceryStore, _ name: String) throws -> ItemID {
        ItemID(
            try store.objects.save(author: "peer") {
                try $0.insert(GrocerySchema.Entity.item, values: ["name": .string(name), "quantity": .double(1)])
            })
    }

    @Test func namesAreStoredComposedWhateverTheKeyboardSent() throws {
        let store = try GroceryStore.temporary(in: directory)
        var draft = ItemDraft(name: Self.decomposed)
        draft.unit = "pi\u{E8}ce"
        draft.homeLocation = "Cave a\u{300} vin"
        let row = try store.addItem(draft)
        #expect(scalars(row.name) == scalars(Self.composed))
        #expect(scalars(row.homeLocationName) == scalars("Cave \u{E0} vin"))
        #expect(try store.entries(.unit).count == 1, "\"pièce\" in either form is one unit")
        var changes = ItemChanges()
        changes.name = "Cre\u{300}me"
        #expect(scalars(try store.editItem(Self.composed, changes).name) == scalars("Cr\u{E8}me"))
        let unit = try store.addEntry(.shop, name: "E\u{301}picerie")
        #expect(scalars(unit.name) == scalars("\u{C9}picerie"))
    }

    @Test func theOtherFormIsTheSameName() throws {
        let store = try GroceryStore.temporary(in: directory)
        _ = try store.addItem(ItemDraft(name: Self.composed))
        #expect(throws: GroceryError.alreadyExists(kind: "item", name: Self.composed)) {
            try store.addItem(ItemDraft(name: Self.decomposed.uppercased()))
        }
        #expect(try store.items().count == 1)
        // Case folding, not only lowercasing: "ß" is "ss".
        _ = try store.addItem(ItemDraft(name: "Stra\u{DF}enbrot"))
        #expect(throws: GroceryError.alreadyExists(kind: "item", name: "Stra\u{DF}enbrot")) {
            try store.addItem(ItemDraft(name: "STRASSENBROT"))
        }
        #expect(try store.resolveItem("strassenbrot").name == "Stra\u{DF}enbrot")
    }

    @Test func aNameStoredDecomposedByAPeerIsFoundAndKeepsItsSpelling() throws {
        let store = try GroceryStore.temporary(in: directory)
        let id = try insertAsIs(store, Self.decomposed)
        #expect(try store.resolveItem(Self.composed).id == id)
        #expect(try store.resolveItem("CAF\u{C9}").id == id)
        var changes = ItemChanges()
        changes.quantity = 3
        let edited = try store.editItem(Self.composed, changes)
        #expect(edited.item.quantity == 3)
        #expect(
            scalars(edited.name) == scalars(Self.decomposed), "an edit of another property does not rewrite the name")
        #expect(throws: GroceryError.alreadyExists(kind: "item", name: Self.decomposed)) {
            try store.addItem(ItemDraft(name: Self.composed))
        }
    }

    @Test func twoItemsOfOneNameAskForDedupe() throws {
        let store = try GroceryStore.temporary(in: directory)
        _ = try insertAsIs(store, Self.decomposed)
        _ = try insertAsIs(store, Self.composed)
        do {
            _ = try store.resolveItem(Self.composed)
            Issue.record("expected two candidates")
        } catch let error as GroceryError {
            guard case .duplicates(let kind, _, let candidates) = error else {
                Issue.record("expected duplicates, got \(error)")
                return
            }
            #expect(kind == "item" && candidates.count == 2)
            // What is wrong, in the model's words; which command merges them is the command line's advice.
            #expect(error.description.contains("the same name, made on several devices"), "\(error)")
            #expect(!error.description.contains("grocery-dude"), "\(error)")
        }
    }

    @Test func anImportFileInTheOtherFormMatchesWhatIsThere() throws {
        let store = try GroceryStore.temporary(in: directory)
        _ = try store.addItem(ItemDraft(name: Self.composed))
        let file = directory.file("decomposed.csv")
        try Data("kind,name,quantity,unit\nitem,\(Self.decomposed),4,pie\u{300}ce\n".utf8).write(to: file)
        try store.importFile(path: file.path)
        let items = try store.items()
        #expect(items.count == 1, "the file's \"Café\" is the one in the store")
        #expect(items.first?.item.quantity == 4)
        #expect(try store.entries(.unit).map { scalars($0.name) } == [scalars("pi\u{E8}ce")], "stored composed")
    }

    @Test func searchFindsANameInEitherForm() throws {
        let store = try GroceryStore.temporary(in: directory)
        _ = try insertAsIs(store, Self.decomposed)
        _ = try insertAsIs(store, "\u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF}")  // 한글 as jamo
        func found(_ search: String) throws -> Int {
            try store.itemIndex(ItemListQuery(grouping: .homeLocation, search: search)).ids.count
        }
        #expect(try found(Self.composed) == 1)
        #expect(try found("caf") == 1)
        #expect(try found("\u{D55C}\u{AE00}") == 1, "the composed syllables find the jamo")
    }

    /// A name typed in a command is looked up by SQLite's index of keys, not by a scan of the
    /// table: same rows (every spelling and form of the key), one probe.
    @Test func aNameIsFoundThroughTheIndexOfKeys() throws {
        let store = try GroceryStore.temporary(in: directory)
        let first = try insertAsIs(store, "  Stra\u{DF}e  Mix")
        let second = try insertAsIs(store, "STRASSE mix")
        _ = try insertAsIs(store, "Strasse")
        try store.objects.read { db in
            let rows = try ReferenceResolver.matches("strasse MIX", table: "item", nameColumn: "name", db: db)
            #expect(rows.map { ItemID($0.id) } == [first, second], "both spellings, in the table's order")
            for (table, column) in [("item", "name")] + CatalogKind.allCases.map({ ($0.table, $0.nameAttribute) }) {
                let plan = try Row.fetchAll(
                    db, sql: "EXPLAIN QUERY PLAN " + ReferenceResolver.namedSQL(table: table, nameColumn: column),
                    arguments: ["x"]
                ).map { $0["detail"] as String }.joined(separator: " ")
                #expect(plan.contains("INDEX ubiquity_key_"), "\(table): \(plan)")
            }
        }
    }
}
