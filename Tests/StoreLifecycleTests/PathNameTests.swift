import Foundation
import StoreLifecycle
import TestSupport
import Testing

@testable import Ubiquity

/// Device, account and store names typed in either Unicode form become one folder; a folder an
/// earlier build made in another form is still found; limits count the normalized name's bytes.
/// Strings are built from explicit scalars, so this file's own normalization does not matter.
@Suite("Names that become paths")
struct PathNameTests {
    let directory = TemporaryDirectory("path-names")

    static let composed = "Famille Caf\u{E9}"
    static let decomposed = "Famille Cafe\u{301}"

    func bytes(_ url: URL) -> [UInt8] { Array(url.lastPathComponent.utf8) }

    @Test func aDeviceTypedInEitherFormIsOneSandbox() throws {
        let one = try DeviceSandbox(dataDirectory: directory.url, device: Self.decomposed)
        let other = try DeviceSandbox(dataDirectory: directory.url, device: Self.composed)
        #expect(bytes(one.root) == Array(Self.composed.utf8), "the folder is named in NFC")
        #expect(one.root.path == other.root.path)
        #expect(Array(one.device.utf8) == Array(Self.composed.utf8))
    }

    @Test func anAccountOrStoreTypedInEitherFormIsOneCloudFolder() throws {
        let cloud = directory.file("Cloud")
        let one = try CloudLayout(cloud: cloud, account: Self.decomposed, storeName: "R\u{E9}serve", modelVersion: 2)
        let other = try CloudLayout(cloud: cloud, account: Self.composed, storeName: "Re\u{301}serve", modelVersion: 2)
        #expect(one.storeFolder.path == other.storeFolder.path)
        #expect(bytes(one.storeFolder.deletingLastPathComponent()) == Array(Self.composed.utf8))
        #expect(Array(other.storeName.utf8) == Array("R\u{E9}serve".utf8))
        let sandbox = try DeviceSandbox(dataDirectory: directory.url, device: "kitchen")
        #expect(
            sandbox.cloudStoreURL(account: Self.decomposed, storeName: "x").path
                == sandbox.cloudStoreURL(account: Self.composed, storeName: "x").path)
        #expect(
            KeyValueStore(cloud: cloud, account: Self.decomposed, peer: "p", format: "notes-kv").folder.path
                == KeyValueStore(cloud: cloud, account: Self.composed, peer: "p", format: "notes-kv").folder.path)
    }

    @Test func aFolderAnEarlierBuildMadeInAnotherFormIsStillFound() throws {
        let cloud = directory.file("Cloud")
        let legacy = cloud.appendingPathComponent(Self.decomposed, isDirectory: true)
        try FileManager.default.createDirectory(at: legacy, withIntermediateDirectories: true)
        let layout = try CloudLayout(cloud: cloud, account: Self.composed, storeName: "GroceryDude", modelVersion: 2)
        #expect(bytes(layout.storeFolder.deletingLastPathComponent()) == Array(Self.decomposed.utf8))

        let devices = directory.file("devices")
        try FileManager.default.createDirectory(
            at: devices.appendingPathComponent("Cuisine\u{301}"), withIntermediateDirectories: true)
        let sandbox = try DeviceSandbox(dataDirectory: directory.url, device: "Cuisin\u{E9}")
        #expect(bytes(sandbox.root) == Array("Cuisine\u{301}".utf8))
        try FileManager.default.createDirectory(at: sandbox.localStoreDirectory, withIntermediateDirectories: true)
        try Data().write(to: sandbox.localStoreDirectory.appendingPathComponent("Re\u{301}serve.sqlite"))
        #expect(bytes(sandbox.localStoreURL(storeName: "R\u{E9}serve")) == Array("Re\u{301}serve.sqlite".utf8))

        // Once the NFC folder exists, it is the one.
        try FileManager.default.createDirectory(
            at: cloud.appendingPathComponent(Self.composed), withIntermediateDirectories: true)
        let again = try CloudLayout(cloud: cloud, account: Self.decomposed, storeName: "GroceryDude", modelVersion: 2)
        #expect(bytes(again.storeFolder.deletingLastPathComponent()) == Array(Self.composed.utf8))
    }

    @Test func aLayoutMadeOfflineFindsTheEarlierFolderOnceTheCloudIsBack() throws {
        let cloud = directory.file("Cloud")  // not mounted yet
        let layout = try CloudLayout(cloud: cloud, account: Self.composed, storeName: "GroceryDude", modelVersion: 2)
        #expect(bytes(layout.storeFolder.deletingLastPathComponent()) == Array(Self.composed.utf8))
        try FileManager.default.createDirectory(
            at: cloud.appendingPathComponent(Self.decomposed), withIntermediateDirectories: true)
        #expect(bytes(layout.storeFolder.deletingLastPathComponent()) == Array(Self.decomposed.utf8))
        try FileManager.default.createDirectory(
            at: cloud.appendingPathComponent(Self.composed), withIntermediateDirectories: true)
        #expect(
            bytes(layout.storeFolder.deletingLastPathComponent()) == Array(Self.decomposed.utf8),
            "found once, then kept")
    }

    @Test func limitsCountTheBytesOfTheNormalizedName() throws {
        // U+0958 is 3 bytes; its NFC form (U+0915 U+093C) is 6: 22 of them are 132 bytes on disk.
        let name = String(repeating: "\u{958}", count: 22)
        #expect(name.utf8.count == 66)
        #expect(throws: SandboxError.invalidDeviceName(name, reason: "it is 132 bytes long in UTF-8; the limit is 128"))
        {
            _ = try DeviceSandbox(dataDirectory: directory.url, device: name)
        }
        #expect(throws: CloudError.invalidAccountName(name)) { _ = try CloudLayout.checkedAccountName(name) }
        #expect(throws: CloudError.invalidStoreName(name)) { _ = try CloudLayout.checkedStoreName(name) }
        #expect(try CloudLayout.checkedAccountName(String(name.prefix(21))).utf8.count == 126)
    }

    @Test func aSlashOrPeriodWithAnAccentOnItIsStillASlashOrPeriod() throws {
        #expect(throws: SandboxError.self) { _ = try DeviceSandbox(dataDirectory: directory.url, device: "a/\u{301}b") }
        #expect(throws: SandboxError.self) {
            _ = try DeviceSandbox(dataDirectory: directory.url, device: ".\u{301}hidden")
        }
        #expect(throws: CloudError.self) { _ = try CloudLayout.checkedAccountName("../\u{301}x") }
        #expect(throws: CloudError.self) { _ = try CloudLayout.checkedStoreName("Grocery.\u{301}Dude") }
    }
}
