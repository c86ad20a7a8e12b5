import Foundation
import GroceryModel
import TextAndFiles
import Ubiquity

#if canImport(Glibc)
    import Glibc
#endif

/// One grocery list the user sees. Core Data kept each document in a store of its own, with its
/// own ubiquitous content name (`UIManagedDocument`); a list is the same: a store name, fixed
/// when the list is made, and a display name anyone can type and change.
public struct NamedList: Codable, Equatable, Sendable {
    /// The store's name: folders and files on every device and in the cloud folder. Never
    /// changes, so a rename moves nothing.
    public var storeName: String
    /// What the user called it: free text (periods, apostrophes, any language).
    public var name: String
    /// The device that made it, when known (lists made before lists had names have none).
    public var createdBy: String?
    public var created: Date?
    /// Set when a device removed it: it leaves every device's list of lists; its data stays.
    public var removedBy: String?
    public var removed: Date?
    /// When its name was last given, by the clock of the device that gave it (nil: when it was
    /// made, or before names had times).
    public var renamed: Date?
    /// The account it was made in: it belongs there only (nil: made with sync off or signed
    /// out, see ``local``, or before lists had an account).
    public var account: String?
    /// Made with cloud sync off or signed out: it belongs to the device's local store.
    public var local: Bool?
    /// The store of the list this one was merged into (`lists merge`): it is removed, its
    /// items live on there, and changes to it that arrive late are carried there.
    public var mergedInto: String?

    public var isRemoved: Bool { removed != nil }
    /// Its name as list names compare (Unicode-normalized, case-folded): two lists with one key
    /// answer to one name.
    public var nameKey: String { UniqueKey.normalize(name) }
    public var isDefault: Bool { storeName == GroceryStore.defaultStoreName }
    /// The list as a question or a refusal names it: `"Dinner" (made by ann, store Dinner-1a2b3c)`.
    public var describedWithStore: String {
        "\"\(name)\" (\(createdBy.map { "made by \($0), " } ?? "")store \(storeName))"
    }

    /// When its name was given: renamed, else made, else never.
    var nameGiven: Date { renamed ?? created ?? .distantPast }

    /// Two devices' words on one list as one, the same whatever the order: the name given last
    /// (by the time it was given; a tie by the name), a removal by either (final: the first),
    /// the making as first told. So a rename or a removal made offline keeps its own time, and
    /// loses only to a change made after it.
    func merged(with other: NamedList) -> NamedList {
        var result = self
        if (other.nameGiven, other.name) > (nameGiven, name) {
            (result.name, result.renamed) = (other.name, other.renamed)
        }
        if let removed = other.removed,
            (removed, other.removedBy ?? "") < (result.removed ?? .distantFuture, result.removedBy ?? "")
        {
            (result.removed, result.removedBy) = (removed, other.removedBy)
        }
        // Where its items went outlives which removal came first: a merge said anywhere holds
        // (of two into different lists, the survivor whose store name sorts first).
        if let into = other.mergedInto, result.mergedInto.map({ into < $0 }) ?? true { result.mergedInto = into }
        if let created = other.created,
            (created, other.createdBy ?? "") < (result.created ?? .distantFuture, result.createdBy ?? "")
        {
            (result.created, result.createdBy) = (created, other.createdBy)
        }
        return result
    }
}

extension String {
    /// A list's name in quotes, as the user typed it (no escaped apostrophes).
    fileprivate var quotedName: String { "\"\(self)\"" }
}

/// What refuses a list command, in words a user can act on: what is wrong, with the names and
/// store names the advice needs (the command line and the screens word it).
public enum NamedListError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case invalidName(String, reason: String)
    case nameInUse(String)
    case unknown(String)
    case removed(String, by: String?)
    case defaultList
    case deviceInUse(String)
    /// Several lists answer to one name (made on two devices apart): each with its store name.
    case ambiguous(String, [NamedList])
    /// `lists merge` named one list twice.
    case sameList(String)

    public var description: String {
        switch self {
        case .invalidName(let name, let reason): "\(name.quotedName) cannot name a list: \(reason)"
        case .nameInUse(let name): "a list named \(name.quotedName) exists already"
        case .unknown(let name): "no list named \(name.quotedName)"
        case .removed(let name, let by): "the list \(name.quotedName) was removed\(by.map { " by \($0)" } ?? "")"
        case .defaultList: "the default list cannot be removed (rename it instead)"
        case .deviceInUse(let reason): reason
        case .ambiguous(let name, let lists):
            "\(lists.count) lists answer to \(name.quotedName) (made apart on different devices): "
                + lists.map {
                    "\($0.name.quotedName)\($0.createdBy.map { " made by \($0)" } ?? "") (store \($0.storeName))"
                }.joined(separator: ", ")
        case .sameList(let name): "\(name.quotedName) is the list to merge into itself: name two lists"
        }
    }

    public var errorDescription: String? { description }
}

/// The device's lists: those it knows of in its own registry (`<sandbox>/lists.json`), those the
/// account's synced key-value store announces (made or renamed on another device), and any
/// store found on the device or in the account's cloud folder without a name (the default
/// list, or one made with `--store-name`), named after its store.
///
/// Names travel in the key-value store, one key per list (`list.<store>`): a rename on one device
/// reaches the others with the next command that reads the lists. Every device's word on a list
/// counts, merged per property (``NamedList/merged(with:)``): the name given last by its own
/// time, a removal for good. A list made, renamed or removed while the cloud folder is out of
/// reach keeps its time in the device's registry and is announced the next time it is
/// reachable; it then wins or loses by that time, not by when it was announced.
public struct NamedLists: Sendable {
    /// What the default list is called until someone renames it.
    public static let defaultDisplayName = "Groceries"
    static let keyPrefix = "list."
    static let maximumNameLength = 100

    let configuration: StoreConfiguration
    let now: @Sendable () -> Date

    public init(configuration: StoreConfiguration, now: @escaping @Sendable () -> Date = Date.init) {
        self.configuration = configuration
        self.now = now
    }

    var registryURL: URL { configuration.sandbox.root.appendingPathComponent("lists.json") }

    // MARK: - Reading

    /// Every list not removed, the default first, then by name in natural order ("Week 2" before
    /// "Week 10").
    public func all() throws -> [NamedList] {
        live(try knownNow())
    }

    /// Every list known now, removed ones included, by store name: one read of the lists, for a
    /// caller that asks several things of them (the list follower's sweep).
    func knownNow() throws -> [String: NamedList] {
        let claim = RegistryClaim(registryURL)
        defer { withExtendedLifetime(claim) {} }
        return try known()
    }

    /// The lists of `known` not removed, in the order ``all()`` gives.
    func live(_ known: [String: NamedList]) -> [NamedList] {
        known.values.filter { !$0.isRemoved }.sorted { a, b in
            if a.isDefault != b.isDefault { return a.isDefault }
            if a.name != b.name { return NaturalOrder.areInIncreasingOrder(a.name, b.name) }
            return a.storeName < b.storeName
        }
    }

    /// The list a user means by `text`: its store name, its name as names compare (case and
    /// spaces aside), or — when only one list matches so — its name with accents aside too
    /// ("ete" finds "Été").
    ///
    /// - Throws: ``NamedListError/ambiguous(_:_:)`` when two lists answer to the name (made apart
    ///   on two devices): each is named with its store name, which names it alone.
    public func resolve(_ text: String) throws -> NamedList {
        let claim = RegistryClaim(registryURL)
        defer { withExtendedLifetime(claim) {} }
        let lists = try known().values.sorted { $0.storeName < $1.storeName }
        let key = UniqueKey.normalize(text)
        let folded = TextFolding.fold(text)
        let byStoreName = Dictionary(lists.map { ($0.storeName, $0) }) { first, _ in first }
        // A store name names one list, whatever the names.
        if let byStore = byStoreName[PathName.normalized(text)] {
            if !byStore.isRemoved { return byStore }
            if let survivor = Self.survivor(of: byStore, in: byStoreName) { return survivor }
        }
        var matches = lists.filter { UniqueKey.normalize($0.name) == key }
        // One name never silently means two lists.
        let live = matches.filter { !$0.isRemoved }
        if live.count > 1 { throw NamedListError.ambiguous(text, live) }
        if matches.isEmpty {
            let loose = lists.filter { !$0.isRemoved && TextFolding.fold($0.name) == folded }
            if loose.count == 1 { matches = loose }
        }
        if let live = matches.first(where: { !$0.isRemoved }) { return live }
        // A list merged into another is found there (its name, or its store name in a script).
        for gone in matches { if let survivor = Self.survivor(of: gone, in: byStoreName) { return survivor } }
        if let gone = matches.first { throw NamedListError.removed(gone.name, by: gone.removedBy) }
        throw NamedListError.unknown(text)
    }

    /// The live list `list`'s items went to, following merges (a list merged into one merged
    /// in turn); `nil` when the chain ends in a list removed outright, or goes round.
    static func survivor(of list: NamedList, in lists: [String: NamedList]) -> NamedList? {
        var seen: Set<String> = [list.storeName]
        var next = list.mergedInto
        while let storeName = next, seen.insert(storeName).inserted, let found = lists[storeName] {
            if !found.isRemoved { return found }
            next = found.mergedInto
        }
        return nil
    }

    /// The lists merged into the list of store `storeName` (removed, their items there), for
    /// carrying what arrives late for them.
    public func merged(into storeName: String) throws -> [NamedList] {
        let claim = RegistryClaim(registryURL)
        defer { withExtendedLifetime(claim) {} }
        return try known().values.filter { $0.isRemoved && $0.mergedInto == storeName }.sorted {
            $0.storeName < $1.storeName
        }
    }

    // MARK: - Changing

    /// Makes a new, empty list.
    public func create(_ name: String) throws -> NamedList {
        let claim = RegistryClaim(registryURL)
        defer { withExtendedLifetime(claim) {} }
        let name = try checkedName(name)
        var lists = try known()
        try requireUnused(name, in: lists, except: nil)
        var list = NamedList(
            storeName: try Self.storeName(for: name, taken: Set(lists.keys).union(readRegistry().keys)), name: name,
            createdBy: configuration.sandbox.device, created: now())
        list = stamped(list, in: currentScope())
        lists[list.storeName] = list
        try record(list, in: lists)
        return list
    }

    /// Gives `list` a new name on every device; its store stays where it is.
    public func rename(_ list: NamedList, to newName: String) throws -> NamedList {
        let claim = RegistryClaim(registryURL)
        defer { withExtendedLifetime(claim) {} }
        let name = try checkedName(newName)
        var lists = try known()
        try requireUnused(name, in: lists, except: list.storeName)
        var renamed = lists[list.storeName] ?? list
        renamed.name = name
        renamed.renamed = now()
        lists[list.storeName] = renamed
        try record(renamed, in: lists)
        return renamed
    }

    /// Removes `list` from every device's list of lists. Nothing is deleted: this device's stores
    /// of it move to `removed-lists/` in its folder, and the cloud folder keeps its logs (a
    /// device that comes back still finds what it needs).
    ///
    /// - Returns: where this device's copy is kept, or `nil` when it had none.
    public func remove(_ list: NamedList) throws -> URL? {
        guard !list.isDefault else { throw NamedListError.defaultList }
        let lock: DeviceLock
        do { lock = try DeviceLock(sandbox: configuration.sandbox, command: "lists rm") } catch {
            throw NamedListError.deviceInUse("\(error); quit the app first")
        }
        let claim = RegistryClaim(registryURL)
        defer { withExtendedLifetime((lock, claim)) {} }
        var lists = try known()
        var removed = lists[list.storeName] ?? list
        removed.removedBy = configuration.sandbox.device
        removed.removed = now()
        lists[list.storeName] = removed
        let kept = try setAside(list)
        try record(removed, in: lists)
        return kept
    }

    /// Records `list` as merged into `survivor` on every device: removed (for good), with where
    /// its items went. Its store stays where it is: what arrives late for it is carried from
    /// there (``ListMerge``).
    @discardableResult
    public func recordMerge(_ list: NamedList, into survivor: NamedList) throws -> NamedList {
        guard !list.isDefault else { throw NamedListError.defaultList }
        let claim = RegistryClaim(registryURL)
        defer { withExtendedLifetime(claim) {} }
        var lists = try known()
        var merged = lists[list.storeName] ?? list
        merged.removedBy = configuration.sandbox.device
        merged.removed = now()
        merged.mergedInto = survivor.storeName
        lists[list.storeName] = merged
        try record(merged, in: lists)
        return merged
    }

    // MARK: - Where lists are found

    /// Every list known here in the scope the device works in now (its account, or its local
    /// store), removed ones included, by store name.
    func known() throws -> [String: NamedList] {
        let scope = currentScope()
        let registered = readRegistry()
        var named = registered.filter { belongs($0.value, to: scope) }.mapValues { stamped($0, in: scope) }
        if let values = cloudValues(), case .account(let account) = scope {
            // Every device's last word on each list, merged with this device's own. A word
            // without an account (an earlier build's) counts only for a list whose data is in
            // this account; one for another account is ignored.
            for (key, texts) in values.everyPeersValue(prefix: Self.keyPrefix) {
                let storeName = String(key.dropFirst(Self.keyPrefix.count))
                for list in texts.compactMap(Self.decode)
                where list.storeName == storeName && belongs(list, to: scope, announced: true) {
                    let list = stamped(list, in: .account(account))
                    named[storeName] = named[storeName]?.merged(with: list) ?? list
                }
            }
            // What the key-value store gives for a list (what earlier builds read) must be the
            // merged word: a list made, renamed or removed here while the cloud folder was out
            // of reach is announced now, with the time it was made.
            let announced = values.all()
            for list in named.values where announced[Self.keyPrefix + list.storeName].flatMap(Self.decode) != list {
                try? values.set(Self.encode(list), forKey: Self.keyPrefix + list.storeName)
            }
        }
        // The registry keeps every scope's lists: those of other accounts wait there.
        let all = registered.merging(named) { _, new in new }
        if all != registered { try? writeRegistry(all) }
        var lists = named
        for storeName in storeNamesOnDisk().union([GroceryStore.defaultStoreName])
        where lists[storeName] == nil && registered[storeName].map({ belongs($0, to: scope) }) ?? true {
            lists[storeName] = Self.unnamed(storeName)
        }
        return lists
    }

    /// A store found with no name given to it: named after its store ("Groceries" for the default).
    static func unnamed(_ storeName: String) -> NamedList {
        NamedList(
            storeName: storeName, name: storeName == GroceryStore.defaultStoreName ? defaultDisplayName : storeName)
    }

    /// Store names with a store on this device or a folder in the account's part of the cloud
    /// folder, in the scope the device works in: its account's cloud stores while it syncs, its
    /// local stores otherwise.
    private func storeNamesOnDisk() -> Set<String> {
        let files = FileManager.default
        var names: Set<String> = []
        if let account = cloudAccount() {
            // While the device syncs: its account's stores, on the device and in the cloud.
            let onDevice = configuration.cloudStoreURL(account: account).deletingLastPathComponent()
                .deletingLastPathComponent()
            names.formUnion((try? files.contentsOfDirectory(atPath: onDevice.path)) ?? [])
            if !configuration.isOffline {
                let inCloud = CloudLayout.accountFolder(cloud: configuration.cloud, account: account)
                for entry in (try? files.contentsOfDirectory(atPath: inCloud.path)) ?? [] {
                    let versions =
                        (try? files.contentsOfDirectory(atPath: inCloud.appendingPathComponent(entry).path)) ?? []
                    if versions.contains(where: { $0.hasPrefix("v") && Int($0.dropFirst()) != nil }) {
                        names.insert(entry)
                    }
                }
            }
        } else {
            // Otherwise the local store's.
            let local = (try? files.contentsOfDirectory(atPath: configuration.sandbox.localStoreDirectory.path)) ?? []
            for file in local where file.hasSuffix(".sqlite") { names.insert(String(file.dropLast(".sqlite".count))) }
        }
        return Set(names.compactMap { try? CloudLayout.checkedStoreName($0) })
    }

    /// The account whose cloud the device syncs with, when cloud sync is on (for the scopes).
    func cloudAccountNow() -> String? { cloudAccount() }

    /// The account whose cloud the device syncs with, when cloud sync is on.
    private func cloudAccount() -> String? {
        guard let settings = try? DeviceSettings.load(from: configuration.sandbox), settings.cloudEnabled else {
            return nil
        }
        return settings.account
    }

    /// The account's synced key-value store, when the device syncs and the folder is reachable.
    private func cloudValues() -> KeyValueStore? {
        guard let account = cloudAccount(), !configuration.isOffline else { return nil }
        return KeyValueStore(
            cloud: configuration.cloud, account: account, peer: configuration.peer,
            format: StoreCoordinator.keyValueFormat,
            createsAccountFolder: false)
    }

    /// Writes `list` to the registry (with the other named lists, not the stores found unnamed)
    /// and announces it to the account.
    private func record(_ list: NamedList, in lists: [String: NamedList]) throws {
        // The lists of other scopes (accounts, the local store) stay in the registry as they are.
        let named = lists.filter { $0.value != Self.unnamed($0.key) || $0.key == list.storeName }
        try writeRegistry(readRegistry().merging(named) { _, new in new })
        try cloudValues()?.set(Self.encode(list), forKey: Self.keyPrefix + list.storeName)
    }

    /// Moves this device's stores of `list` (its local store, its cloud store of the current
    /// account with its fallback and kept stores) into `removed-lists/<store> <time>/`.
    private func setAside(_ list: NamedList) throws -> URL? {
        let files = FileManager.default
        var configuration = configuration
        configuration.storeName = list.storeName
        var moving: [URL] = []
        for suffix in ["", "-wal", "-shm"] {
            let url = URL(fileURLWithPath: configuration.localStoreURL.path + suffix)
            if files.fileExists(atPath: url.path) { moving.append(url) }
        }
        if let account = (try? DeviceSettings.load(from: configuration.sandbox))?.account {
            let folder = configuration.cloudStoreURL(account: account).deletingLastPathComponent()
            if files.fileExists(atPath: folder.path) { moving.append(folder) }
        }
        guard !moving.isEmpty else { return nil }
        let stamp = Timestamp.string(now()).replacingOccurrences(of: ":", with: "-")
        let kept = configuration.sandbox.root.appendingPathComponent("removed-lists", isDirectory: true)
            .appendingPathComponent("\(list.storeName) \(stamp)", isDirectory: true)
        try files.createDirectory(at: kept, withIntermediateDirectories: true)
        for url in moving { try files.moveItem(at: url, to: kept.appendingPathComponent(url.lastPathComponent)) }
        return kept
    }

    // MARK: - The registry file

    private func readRegistry() -> [String: NamedList] {
        guard let data = try? Data(contentsOf: registryURL),
            let lists = try? Self.decoder.decode([NamedList].self, from: data)
        else { return [:] }
        return Dictionary(lists.map { ($0.storeName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    private func writeRegistry(_ lists: [String: NamedList]) throws {
        let sorted = lists.values.sorted { $0.storeName < $1.storeName }
        try AtomicFile.write(try Self.encoder.encode(sorted), to: registryURL)
    }

    /// Dates to the millisecond: two renames a moment apart are told apart. Read with or
    /// without the fraction (earlier builds wrote whole seconds).
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(Self.dateFormatter(fraction: true).string(from: date))
        }
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard
                let date = Self.dateFormatter(fraction: true).date(from: text)
                    ?? Self.dateFormatter(fraction: false).date(from: text)
            else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "not a date: \(text)"))
            }
            return date
        }
        return decoder
    }()

    private static func dateFormatter(fraction: Bool) -> ISO8601DateFormatter {
        fraction ? withFraction : withoutFraction
    }

    /// Made once: making one was most of reading a list. Used only to parse and format, which
    /// `ISO8601DateFormatter` does safely from several threads.
    nonisolated(unsafe) private static let withFraction: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
    nonisolated(unsafe) private static let withoutFraction: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter
    }()

    static func encode(_ list: NamedList) -> String {
        (try? encoder.encode(list)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// A list announced by a peer, checked as anything from the cloud folder is: a store name
    /// valid as written, a name by an item name's rules, device names that are names (or none).
    /// The default list cannot be removed, whoever says so.
    static func decode(_ text: String) -> NamedList? {
        guard var list = try? decoder.decode(NamedList.self, from: Data(text.utf8)),
            (try? CloudLayout.checkedStoreName(list.storeName)) == list.storeName,
            ValueRule.name(maximumLength: maximumNameLength).violation(of: .string(list.name)) == nil
        else { return nil }
        func device(_ name: String?) -> String? {
            name.flatMap { ValueRule.name(maximumLength: 200).violation(of: .string($0)) == nil ? $0 : nil }
        }
        list.name = PathName.normalized(list.name)
        list.createdBy = device(list.createdBy)
        list.removedBy = device(list.removedBy)
        if let into = list.mergedInto, (try? CloudLayout.checkedStoreName(into)) != into || into == list.storeName {
            list.mergedInto = nil
        }
        // Times are input: a name "given" far in the future (a clock years ahead, or a forged
        // file) would win over every later rename. Beyond the bound clock readings have, it
        // counts as given at no known time.
        let latest = Date().addingTimeInterval(HLC.trustedAhead)
        if let renamed = list.renamed, renamed > latest { list.renamed = nil }
        if let created = list.created, created > latest { list.created = nil }
        if list.isDefault {
            list.removed = nil
            list.removedBy = nil
            list.mergedInto = nil
        }
        return list
    }

    // MARK: - Names

    private func checkedName(_ text: String) throws -> String {
        let name = PathName.normalized(text.trimmingCharacters(in: .whitespaces))
        if let reason = ValueRule.name(maximumLength: Self.maximumNameLength).violation(of: .string(name)) {
            throw NamedListError.invalidName(text, reason: reason)
        }
        return name
    }

    private func requireUnused(_ name: String, in lists: [String: NamedList], except storeName: String?) throws {
        let key = UniqueKey.normalize(name)
        if lists.values.contains(where: {
            !$0.isRemoved && $0.storeName != storeName && UniqueKey.normalize($0.name) == key
        }) {
            throw NamedListError.nameInUse(name)
        }
    }

    /// A store name for a list called `name`: its letters and digits (any script) joined by
    /// dashes, at most 40 bytes, then a dash and six random hex digits — so two lists with the
    /// same name on two devices, or a list made again after one was removed, never share a
    /// store. Always a valid store name: no period, slash, control character or leading `~`.
    static func storeName(for name: String, taken: Set<String>) throws -> String {
        var slug = ""
        var dash = false
        for character in PathName.normalized(name) {
            if character.isLetter || character.isNumber {
                if dash, !slug.isEmpty { slug.append("-") }
                dash = false
                guard slug.utf8.count + String(character).utf8.count <= 40 else { break }
                slug.append(character)
            } else {
                dash = true
            }
        }
        if slug.isEmpty { slug = "List" }
        while true {
            let candidate = try CloudLayout.checkedStoreName(
                "\(slug)-\(String(format: "%06x", UInt32.random(in: 0..<0x100_0000)))")
            if !taken.contains(candidate) { return candidate }
        }
    }
}

/// An exclusive claim on a device's registry of lists while one command reads and writes it
/// (an `flock` on `lists.json.lock`, released when dropped or when the process ends): two
/// commands making lists at once both keep theirs. Without it (a file system without locks)
/// the registry is used as before.
private final class RegistryClaim {
    private let fd: Int32

    init(_ registry: URL) {
        fd = open(registry.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        while flock(fd, LOCK_EX) != 0, errno == EINTR {}
    }

    deinit {
        if fd >= 0 { close(fd) }
    }
}
