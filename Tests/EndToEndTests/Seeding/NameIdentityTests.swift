import Foundation
import GroceryModel
import StoreLifecycle
import TestSupport
import Testing
import Ubiquity

/// "Café" typed on two keyboards — a composed "é" (U+00E9), or "e" and a combining accent
/// (U+0301) — through the real binary: one item, one device, one account folder. Strings are
/// built from explicit scalars, so this file's own normalization does not matter.
@Suite("One identity per name, from the command line")
struct NameIdentityTests {
    let directory = TemporaryDirectory("names-cli")

    static let composed = "Caf\u{E9}"
    static let decomposed = "Cafe\u{301}"

    func device(_ name: String) -> CommandRunner {
        CommandRunner(dataDirectory: directory.path, device: name, environment: CommandRunner.withoutDefaultData)
    }

    func scalars(_ value: Any?) -> [UInt32] { ((value as? String) ?? "").unicodeScalars.map(\.value) }

    @Test func anItemTypedInEitherFormIsOneItem() throws {
        let kitchen = device("kitchen")
        try kitchen.output(["item", "add", Self.decomposed, "--qty", "2"])
        var items = try kitchen.items()
        #expect(items.map { scalars($0["name"]) } == [scalars(Self.composed)], "stored in NFC")

        let before = try kitchen.output(["export"])
        let refused = try kitchen.run(["item", "add", "CAF\u{C9}"])
        #expect(refused.status != 0)
        #expect(
            refused.stderr.hasPrefix("Error: an item named \"\(Self.composed)\" exists already"), "\(refused.stderr)")
        #expect(try kitchen.output(["export"]) == before, "nothing changed")

        try kitchen.output(["item", "edit", Self.composed, "--qty", "3"])
        try kitchen.output(["item", "edit", Self.decomposed.uppercased(), "--note", "strong"])
        items = try kitchen.items()
        #expect(items.count == 1)
        #expect(items.first?["quantity"] as? Double == 3 && items.first?["note"] as? String == "strong")
    }

    @Test func twoFormsArrivingFromTwoDevicesAreFoundAndMergedByDedupe() throws {
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["cloud", "enable"])
        try phone.output(["cloud", "enable"])
        try phone.output(["item", "ls"])  // sets the phone's cloud store up
        try kitchen.output(["item", "add", Self.composed, "--note", "from the kitchen"])
        // Meanwhile the phone, running an older build, saved the decomposed form as it was typed.
        let sandbox = try DeviceSandbox(dataDirectory: directory.url, device: "phone")
        let store = try GroceryStore(
            path: sandbox.cloudStoreURL(account: "default", storeName: "GroceryDude").path,
            defaultData: false, peer: try sandbox.peerID())
        try store.objects.save(author: "item add") { context in
            _ = try context.insert(
                GrocerySchema.Entity.item, values: ["name": .string(Self.decomposed), "quantity": .double(2)])
        }
        try phone.output(["cloud", "sync"])
        try kitchen.output(["cloud", "sync"])
        let both = try kitchen.items()
        #expect(both.count == 2)
        #expect(
            Set(both.map { scalars($0["name"]) }) == [scalars(Self.composed), scalars(Self.decomposed)],
            "a peer's value is not rewritten by import")

        let ambiguous = try kitchen.run(["item", "edit", Self.composed, "--qty", "5"])
        #expect(ambiguous.status != 0)
        #expect(
            ambiguous.stderr.contains("matches 2 items")
                && ambiguous.stderr.contains("grocery-dude dedupe merges them"),
            "\(ambiguous.stderr)")

        let merged = try kitchen.output(["dedupe"])
        #expect(merged.hasSuffix("Merged 1 duplicate.\n"), "\(merged)")
        try kitchen.output(["item", "edit", Self.decomposed, "--qty", "5"])
        try phone.output(["cloud", "sync"])
        for peer in [kitchen, phone] {
            let items = try peer.items()
            #expect(items.count == 1, "\(peer.device)")
            #expect(
                items.first?["quantity"] as? Double == 5 && items.first?["note"] as? String == "from the kitchen",
                "\(peer.device)")
        }
        #expect(try kitchen.output(["export"]) == (try phone.output(["export"])))
    }

    @Test func anAccountOrDeviceTypedInEitherFormIsOneFolder() throws {
        let kitchen = device("kitchen")
        let phone = device("phone")
        try kitchen.output(["account", "sign-in", "Famille \(Self.decomposed)"])
        try phone.output(["account", "sign-in", "Famille \(Self.composed)"])
        try kitchen.output(["cloud", "enable"])
        try phone.output(["cloud", "enable"])
        try kitchen.output(["item", "add", "Oat Milk"])
        #expect(try phone.items().map { $0["name"] as? String } == ["Oat Milk"])
        let accounts = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/Cloud")
        #expect(accounts.map { Array($0.utf8) } == [Array("Famille \(Self.composed)".utf8)], "one folder, in NFC")

        // The same device, typed in the other form: its sandbox, its peer ID, its data.
        let other = CommandRunner(
            dataDirectory: directory.path, device: "Cuisin\u{E9}", environment: CommandRunner.withoutDefaultData)
        let same = CommandRunner(
            dataDirectory: directory.path, device: "Cuisine\u{301}", environment: CommandRunner.withoutDefaultData)
        try other.output(["item", "add", "Tea"])
        #expect(try same.items().map { $0["name"] as? String } == ["Tea"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path + "/devices").count == 3,
            "kitchen, phone, Cuisiné")
    }

    @Test func anAccountFolderAnEarlierBuildMadeInTheOtherFormIsStillFound() throws {
        let kitchen = device("kitchen")
        try kitchen.output(["account", "sign-in", "Famille \(Self.composed)"])
        try kitchen.output(["cloud", "enable"])
        try kitchen.output(["item", "add", "Oat Milk"])
        // As an earlier build left it: the account's folder named in the decomposed form.
        let cloud = directory.url.appendingPathComponent("Cloud")
        try FileManager.default.moveItem(
            at: cloud.appendingPathComponent("Famille \(Self.composed)"),
            to: cloud.appendingPathComponent("Famille \(Self.decomposed)"))
        let laptop = device("laptop")
        try laptop.output(["account", "sign-in", "Famille \(Self.composed)"])
        try laptop.output(["cloud", "enable"])
        #expect(try laptop.items().map { $0["name"] as? String } == ["Oat Milk"])
        try laptop.output(["item", "add", "Bread"])
        #expect(try kitchen.items().map { $0["name"] as? String } == ["Bread", "Oat Milk"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: cloud.path).count == 1, "no second folder")
    }
}
