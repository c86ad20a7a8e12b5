import Foundation
import TextAndFiles
import Ubiquity

/// A device's own settings, kept in `<sandbox>/settings.json`: which account it is signed in
/// to and whether "Enable cloud sync" is on. A fresh device is signed in to `default`, with
/// cloud sync off.
public struct DeviceSettings: Codable, Equatable, Sendable {
    public static let defaultAccount = "default"

    public var account: String? = DeviceSettings.defaultAccount
    public var cloudEnabled = false
    /// "Airplane mode": set by `cloud offline`, cleared by `cloud online`.
    public var offline = false
    /// A store whose data is being merged into the cloud store ("Merge with Cloud?"): set until
    /// the copy is committed, exported, and the store removed, so that a crash resumes it.
    public var seedSource: String?
    /// By account, the IDs of the cloud folder this device synced with (``CloudFolderIdentity``):
    /// a folder that holds none of them is not the account's cloud folder.
    public var cloudFolderIDs: [String: [String]] = [:]
    /// Who uses the device (`person set`), named in every log it publishes; `nil`: the
    /// device's name. Never taken from the login: that would publish a full name unasked.
    public var person: String?

    public init() {}

    private enum CodingKeys: String, CodingKey {
        case account, cloudEnabled, offline, seedSource, cloudFolderIDs, person
    }

    /// Reads what a settings file has; a setting it lacks (written by an older version) keeps its
    /// default.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        account = try container.decodeIfPresent(String.self, forKey: .account)
        cloudEnabled = try container.decodeIfPresent(Bool.self, forKey: .cloudEnabled) ?? false
        offline = try container.decodeIfPresent(Bool.self, forKey: .offline) ?? false
        seedSource = try container.decodeIfPresent(String.self, forKey: .seedSource)
        cloudFolderIDs = try container.decodeIfPresent([String: [String]].self, forKey: .cloudFolderIDs) ?? [:]
        person = try container.decodeIfPresent(String.self, forKey: .person)
    }

    /// The device's settings. A damaged file is kept aside and rebuilt from the stores and the
    /// transition history (``rebuilt(from:)``): the data stays visible and sync keeps its state.
    public static func load(from sandbox: DeviceSandbox) throws -> DeviceSettings {
        guard let data = try? Data(contentsOf: sandbox.settingsURL) else { return DeviceSettings() }
        if let settings = try? JSONDecoder().decode(DeviceSettings.self, from: data) { return settings }
        let settings = rebuilt(from: sandbox)
        let kept = try sandbox.keepCopy(of: data, for: sandbox.settingsURL)
        try settings.save(to: sandbox)
        let cloud = settings.cloudEnabled ? "cloud sync on" : "cloud sync off"
        let account = settings.account.map { "account \($0.debugDescription)" } ?? "signed out"
        try? TransitionJournal(sandbox: sandbox).record(
            event: "settingsRebuilt",
            detail:
                "the settings file was damaged: kept at \(kept.path); rebuilt from the stores and the history (\(account), \(cloud))",
            by: "grocery-dude")
        return settings
    }

    public func save(to sandbox: DeviceSandbox) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(try encoder.encode(self), to: sandbox.settingsURL)
    }
}

extension DeviceSandbox {
    public var settingsURL: URL { root.appendingPathComponent("settings.json") }

    /// The device's store for an account's cloud content: `ubiquity/<account>/<store>/store.sqlite`.
    /// Both names are found as ``PathName`` says: typed in either Unicode form, one folder.
    public func cloudStoreURL(account: String, storeName: String) -> URL {
        let accountFolder = PathName.url(
            of: account, in: root.appendingPathComponent("ubiquity", isDirectory: true), isDirectory: true)
        return PathName.url(of: storeName, in: accountFolder, isDirectory: true).appendingPathComponent("store.sqlite")
    }
}
