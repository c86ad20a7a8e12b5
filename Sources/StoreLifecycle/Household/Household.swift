import Foundation
import GroceryModel
import Ubiquity

/// Claims ("I'll get it") and presence ("who is shopping where") of one list, through files of
/// their own in the cloud folder (``HouseholdFolder``): read, judged and written here.
///
/// Every file expires, judged by this device's clock from when it first saw the file
/// (``FirstSights``), never by the time the writer states: a claim after ``claimLifetime``, a
/// presence written by `shopping start` after ``presenceLifetime``, one written by a process
/// that refreshes it (the app with Shop open, `cloud watch`) after ``refreshedPresenceLifetime``
/// — so a device that crashed stops showing as shopping by itself. A bad file is refused alone
/// and reported; nothing waits on it.
public struct Household: Sendable {
    /// How long a claim holds after this device first saw it.
    public static let claimLifetime: TimeInterval = 12 * 3600
    /// How long `shopping start` lasts after a device first saw it.
    public static let presenceLifetime: TimeInterval = 2 * 3600
    /// How long a refreshed presence lasts after a device first saw it.
    public static let refreshedPresenceLifetime: TimeInterval = 3 * 60
    /// How often a refreshing process writes a new presence.
    public static let refreshInterval: TimeInterval = 60

    let store: GroceryStore
    let configuration: StoreConfiguration
    let device: DeviceStore
    let claims: HouseholdFolder
    let presence: HouseholdFolder
    let now: @Sendable () -> Date

    var peer: String { store.objects.peer }
    /// Asked at each use: the app's follower lives while the device goes offline and back.
    var isOffline: Bool { device.isOffline }
    /// Beside the list's store: `ubiquity/<account>/<store name>/household-seen.json`.
    var sightsURL: URL {
        URL(fileURLWithPath: store.objects.path).deletingLastPathComponent().appendingPathComponent(
            FirstSights.fileName)
    }

    /// The household of the device's store; nil unless it is a cloud store.
    init?(_ device: DeviceStore, now: @escaping @Sendable () -> Date = { Date() }) {
        guard device.role == .cloud, let account = device.account, let sync = device.sync else { return nil }
        let cloud = sync.layout.cloud
        let storeName = device.configuration.storeName
        guard let claims = try? HouseholdFolder(cloud: cloud, account: account, storeName: storeName, kind: .claims),
            let presence = try? HouseholdFolder(cloud: cloud, account: account, storeName: storeName, kind: .presence)
        else { return nil }
        self.store = device.store
        self.configuration = device.configuration
        self.device = device
        self.claims = claims
        self.presence = presence
        self.now = now
    }

    // MARK: - Reading

    /// What the folders say now. Offline, nothing: claims and presence are of the moment.
    public func read() -> HouseholdView {
        var view = HouseholdView()
        // Most lists have no claims and nobody shopping: two `lstat`s, not the offline checks.
        guard [claims, presence].contains(where: { FileManager.default.fileExists(atPath: $0.folder.path) }),
            !isOffline
        else { return view }
        let now = now()
        var sights = FirstSights.load(from: sightsURL)
        var present: Set<String> = []
        var latestClaims: [String: (note: ClaimNote, reading: HLC, firstSeen: Date)] = [:]
        var latestPresence: [String: (note: PresenceNote, firstSeen: Date)] = [:]

        func refuse(_ file: HouseholdFile, _ violation: RuleViolation) {
            let refused = RefusedCloudFile(household: file, reason: violation.reason)
            view.refused.append(refused)
            if sights.refuse(path: file.path, size: file.size, inode: file.inode, now: now) {
                configuration.logger.warning("refused \(refused.summary)")
                configuration.tell(Notice(.note, "refused: \(refused.summary) (ignored)"))
            }
        }

        for folder in [claims, presence] where !folder.isListable {
            view.refused.append(
                RefusedCloudFile(
                    folder: "\(folder.account)/\(folder.storeName).\(folder.kind.rawValue)",
                    reason: "it cannot be listed: its claims or presence are not seen"))
        }
        for file in claims.files() {
            present.insert(file.path)
            switch checkedClaim(file, now: now) {
            case .failure(let violation): refuse(file, violation)
            case .success(let (note, reading)):
                let firstSeen = sights.firstSeen(path: file.path, size: file.size, inode: file.inode, now: now)
                if latestClaims[note.item].map({ reading > $0.reading }) ?? true {
                    latestClaims[note.item] = (note, reading, firstSeen)
                }
            }
        }
        for file in presence.files() {
            present.insert(file.path)
            switch checkedPresence(file) {
            case .failure(let violation): refuse(file, violation)
            case .success(let note):
                let firstSeen = sights.firstSeen(path: file.path, size: file.size, inode: file.inode, now: now)
                // A peer's files are numbered: its newest says what it does now.
                latestPresence[file.peer] = (note, firstSeen)
            }
        }
        for (item, latest) in latestClaims {
            guard latest.note.kind == "claim", now.timeIntervalSince(latest.firstSeen) < Self.claimLifetime,
                let id = ItemID(item), holds(latest.reading, on: id)
            else { continue }
            view.claims[id] = ItemClaim(
                item: id, itemName: latest.note.itemName, person: latest.note.person, device: latest.note.device,
                peer: latest.note.peer, isThisDevice: latest.note.peer == peer, reading: latest.reading)
        }
        for (peer, latest) in latestPresence {
            let lifetime = latest.note.refreshed ? Self.refreshedPresenceLifetime : Self.presenceLifetime
            guard latest.note.kind == "shopping", now.timeIntervalSince(latest.firstSeen) < lifetime else { continue }
            view.shoppers.append(
                Shopper(
                    person: latest.note.person, device: latest.note.device, peer: peer, shop: latest.note.shop,
                    since: Timestamp.parse(latest.note.since) ?? latest.firstSeen, isThisDevice: peer == self.peer))
        }
        view.shoppers.sort { ($0.person, $0.device, $0.peer) < ($1.person, $1.device, $1.peer) }
        view.refused.sort { $0.path < $1.path }
        sights.keepOnly(
            present, under: [claims, presence].map { "\($0.account)/\($0.storeName).\($0.kind.rawValue)/" })
        if sights != FirstSights.load(from: sightsURL) { sights.save(to: sightsURL) }
        // A claim this device has seen comes before its next change of the item: a collect made
        // here after seeing it ends it, however the two devices' wall clocks differ.
        if let newest = latestClaims.values.map(\.reading).max() { try? store.objects.observeReading(newest) }
        return view
    }

    /// Whether a claim made at `reading` still holds on the item: it is on the list, not
    /// collected, and neither changed after the claim (by clock reading) — a change after it
    /// (collected, taken off the list, or put back) ended it. A deleted item holds no claim.
    func holds(_ reading: HLC, on id: ItemID) -> Bool {
        guard let row = try? store.item(id: id), row.item.listed, !row.item.collected else { return false }
        let readings = (try? store.objects.propertyReadings(entity: ItemEntity.name, id: id.globalID)) ?? [:]
        return !["listed", "collected"].contains { readings[$0].map { $0 > reading } ?? false }
    }

    func checkedClaim(_ file: HouseholdFile, now: Date) -> Result<(ClaimNote, HLC), RuleViolation> {
        let note: ClaimNote
        switch HouseholdNoteCheck.checked(ClaimNote.self, file, folder: claims) {
        case .failure(let violation): return .failure(violation)
        case .success(let checked): note = checked
        }
        guard ["claim", "release"].contains(note.kind) else { return .failure(RuleViolation("its kind is unknown")) }
        guard ItemID(note.item) != nil, (try? Validation.name(note.itemName, field: "item name")) == note.itemName
        else { return .failure(RuleViolation("its item cannot be right")) }
        guard let reading = HLC(note.reading), reading.peer == file.peer, reading.wall >= 0, reading.counter >= 0
        else { return .failure(RuleViolation("its clock reading cannot be right")) }
        // A reading far in the future would order the claim after every change for ever.
        let limit = (now.timeIntervalSince1970 + HLC.trustedAhead) * 1000
        guard Double(reading.wall) <= limit else {
            return .failure(RuleViolation("its clock reading is more than a day ahead of this device's clock"))
        }
        return .success((note, reading))
    }

    func checkedPresence(_ file: HouseholdFile) -> Result<PresenceNote, RuleViolation> {
        let note: PresenceNote
        switch HouseholdNoteCheck.checked(PresenceNote.self, file, folder: presence) {
        case .failure(let violation): return .failure(violation)
        case .success(let checked): note = checked
        }
        guard ["shopping", "stopped"].contains(note.kind) else { return .failure(RuleViolation("its kind is unknown")) }
        if let shop = note.shop, (try? Validation.name(shop, field: "shop name")) != shop {
            return .failure(RuleViolation("its shop cannot be right"))
        }
        guard Timestamp.parse(note.since) != nil else { return .failure(RuleViolation("its time cannot be right")) }
        return .success(note)
    }

    // MARK: - Writing

    /// Throws ``HouseholdError/offline(_:)`` when the cloud folder cannot be used now: nothing
    /// of the household can be read or written.
    public func requireOnline() throws {
        if isOffline {
            throw HouseholdError.offline(configuration.cloudFolderProblem ?? "this device is offline")
        }
    }

    /// "I'll get it": claims a listed item that is not collected for this device's person.
    ///
    /// - Returns: the claim that held before, when it was someone else's.
    @discardableResult
    public func claim(_ row: ItemRow) throws -> ItemClaim? {
        try requireOnline()
        guard row.item.listed else { throw HouseholdError.notListed(row.name) }
        guard !row.item.collected else { throw HouseholdError.collected(row.name) }
        let before = read().claims[row.id]
        try write(kind: "claim", on: row, after: newestReading(on: row.id))
        return before.flatMap { $0.isThisDevice ? nil : $0 }
    }

    /// Takes a claim back, this device's or anyone's (a release of this device's own: another
    /// device's file is never deleted).
    ///
    /// - Returns: the claim released.
    @discardableResult
    public func unclaim(_ row: ItemRow) throws -> ItemClaim {
        try requireOnline()
        guard let held = read().claims[row.id] else { throw HouseholdError.notClaimed(row.name) }
        try write(kind: "release", on: row, after: newestReading(on: row.id))
        return held
    }

    /// The newest reading of any claim or release of the item, whatever its state.
    private func newestReading(on id: ItemID) -> HLC? {
        claims.files().compactMap { file -> HLC? in
            guard case .success(let (note, reading)) = checkedClaim(file, now: now()), note.item == id.description
            else { return nil }
            return reading
        }.max()
    }

    private func write(kind: String, on row: ItemRow, after floor: HLC?) throws {
        let reading = try store.objects.nextReading(after: floor, object: (ItemEntity.name, row.id.globalID))
        let person = configuration.person().name
        let note = ClaimNote(
            account: claims.account, store: claims.storeName, peer: peer, device: configuration.sandbox.device,
            person: person, item: row.id.description, itemName: row.name, reading: reading.description, kind: kind,
            written: HouseholdNoteCheck.time(now()))
        let written = try claims.write(try HouseholdNoteCheck.encode(note), peer: peer)
        // This device's older files about the item are superseded; those about other items
        // written over a claim's life ago (by this device's own clock) are done with: a device
        // that has not seen one by then loses nothing worth showing.
        let now = now().timeIntervalSince1970
        claims.removeOwn(peer: peer) { file in
            guard file.path != written else { return false }
            if now - file.modified > Self.claimLifetime { return true }
            guard case .success(let data) = file.body, let old = try? JSONDecoder().decode(ClaimNote.self, from: data)
            else { return false }
            return old.item == note.item
        }
    }

    /// `shopping start`: this device's person is shopping (at `shop`, or in no shop in
    /// particular), until `shopping stop` or ``presenceLifetime``; `refreshed` for a process that
    /// writes again every ``refreshInterval`` while it runs (``refreshedPresenceLifetime``).
    public func startShopping(at shop: String?, refreshed: Bool = false) throws {
        try requireOnline()
        let own = ownPresence()
        let since = own.flatMap { $0.note.kind == "shopping" && $0.note.shop == shop ? $0.note.since : nil }
        try writePresence(
            kind: "shopping", shop: shop, since: since ?? HouseholdNoteCheck.time(now()), refreshed: refreshed)
    }

    /// `shopping stop`: this device's person is no longer shopping.
    public func stopShopping() throws {
        try requireOnline()
        try writePresence(kind: "stopped", shop: nil, since: HouseholdNoteCheck.time(now()), refreshed: false)
    }

    /// While this device is shopping, writes a refreshed presence when the last is
    /// ``refreshInterval`` old (`cloud watch`, the app with Shop open).
    ///
    /// - Returns: whether this device is shopping.
    @discardableResult
    public func refreshIfShopping() throws -> Bool {
        guard !isOffline, let own = ownPresence(), own.note.kind == "shopping" else { return false }
        if now().timeIntervalSince1970 - own.modified >= Self.refreshInterval || !own.note.refreshed {
            try writePresence(kind: "shopping", shop: own.note.shop, since: own.note.since, refreshed: true)
        }
        return true
    }

    /// This device's newest presence that checks out, with its file's modification time (its own clock).
    func ownPresence() -> (note: PresenceNote, modified: Double)? {
        for file in presence.files(of: peer).reversed() {
            if case .success(let note) = checkedPresence(file) { return (note, file.modified) }
        }
        return nil
    }

    private func writePresence(kind: String, shop: String?, since: String, refreshed: Bool) throws {
        let note = PresenceNote(
            account: presence.account, store: presence.storeName, peer: peer, device: configuration.sandbox.device,
            person: configuration.person().name, shop: shop, kind: kind, since: since, refreshed: refreshed,
            written: HouseholdNoteCheck.time(now()))
        let written = try presence.write(try HouseholdNoteCheck.encode(note), peer: peer)
        presence.removeOwn(peer: peer) { $0.path != written }
    }
}

extension DeviceStore {
    /// The claims and presence of this store's list; nil unless it is a cloud store.
    public var household: Household? { Household(self) }
}

extension RefusedCloudFile {
    /// A household folder that cannot be listed.
    init(folder path: String, reason: String) {
        kind = "folder"
        self.path = path
        peer = ""
        seq = 0
        device = nil
        self.reason = reason
        summary = "folder \(path): \(reason)"
        holdsDeviceBack = false
    }

    /// A household file refused: it holds nothing back.
    init(household file: HouseholdFile, reason: String) {
        kind = file.kind.fileKind
        path = file.path
        peer = file.peer
        seq = file.number
        device = nil  // a refused file's words are not trusted, its device's name neither
        self.reason = reason
        summary = "\(file.kind.fileKind) file \(file.path): \(reason)"
        holdsDeviceBack = false
    }
}
