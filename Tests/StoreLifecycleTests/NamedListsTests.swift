import Foundation
import GroceryModel
import StoreLifecycle
import TestSupport
import Testing

/// The device's lists in one process (`NamedLists`): what `lists new`, `rename`, `rm`, `merge` and
/// `--list` promise end to end (EndToEndTests/Lists), tested on the type itself. Times come from
/// a clock the test sets, so which of two changes is later is never left to chance.
@Suite("Named lists, in process")
struct NamedListsTests {
    let directory = TemporaryDirectory("named-lists-in-process")

    /// A clock the test moves by hand. It starts an hour back: a time read from a peer that is
    /// ahead of this machine's clock counts for nothing (`NamedLists.decode`).
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var seconds = (Date().timeIntervalSince1970 - 3600).rounded()

        var now: Date { lock.withLock { Date(timeIntervalSince1970: seconds) } }
        func advance(_ interval: TimeInterval) { lock.withLock { seconds += interval } }
    }

    let clock = Clock()

    /// A device with cloud sync off.
    func localDevice(_ name: String) throws -> (StoreConfiguration, NamedLists) {
        let configuration = try StoreConfiguration.temporary(in: directory, device: name)
        return (configuration, NamedLists(configuration: configuration, now: { [clock] in clock.now }))
    }

    /// A device syncing with the shared cloud folder, set up as `cloud enable` and its first
    /// command set it up.
    func cloudDevice(_ name: String) throws -> (StoreConfiguration, NamedLists) {
        let (configuration, lists) = try localDevice(name)
        try StoreCoordinator.enableCloudSync(configuration)
        let coordinator = try StoreCoordinator(configuration: configuration, claimDevice: { true })
        try coordinator.prepareForCommand()
        try coordinator.current.close()
        return (configuration, lists)
    }

    func setOffline(_ configuration: StoreConfiguration, _ offline: Bool) throws {
        try configuration.changeSettings { $0.offline = offline }
    }

    @Test func aListIsMadeRenamedAndFoundByItsNameAsNamesCompare() throws {
        let (_, lists) = try localDevice("kitchen")
        #expect(try lists.all().map(\.name) == ["Groceries"], "the default list, named before anyone names it")

        let made = try lists.create("Week-end at Anna's")
        #expect(made.name == "Week-end at Anna's")
        #expect(made.createdBy == "kitchen" && made.created == clock.now)
        #expect(made.storeName.hasPrefix("Week-end-at-Anna-s-"), "\(made.storeName)")
        #expect(try lists.all().map(\.name) == ["Groceries", "Week-end at Anna's"], "the default list first")
        #expect(try lists.resolve("week-end  at ANNA'S") == made, "case and spaces aside")
        #expect(try lists.resolve(made.storeName) == made, "its store name names it")

        clock.advance(60)
        let renamed = try lists.rename(made, to: "Été à la plage")
        #expect(renamed.storeName == made.storeName, "a rename moves no store")
        #expect(renamed.renamed == clock.now)
        #expect(try lists.all().map(\.name) == ["Groceries", "Été à la plage"])
        #expect(try lists.resolve("ete a la plage") == renamed, "accents aside when only one list matches")
        #expect(throws: NamedListError.unknown("Week-end at Anna's")) { try lists.resolve("Week-end at Anna's") }
    }

    @Test func listsAreInNaturalOrderAfterTheDefaultList() throws {
        let (_, lists) = try localDevice("kitchen")
        for name in ["Week 10", "apples", "Week 2", "Zoo"] { _ = try lists.create(name) }
        #expect(try lists.all().map(\.name) == ["Groceries", "apples", "Week 2", "Week 10", "Zoo"])
    }

    @Test func aRemovedListIsGoneItsCopyKeptAsideAndItsNameFreeForANewStore() throws {
        let (configuration, lists) = try localDevice("kitchen")
        let camping = try lists.create("Camping")
        var campingConfiguration = configuration
        campingConfiguration.storeName = camping.storeName
        let store = try campingConfiguration.openStore(at: campingConfiguration.localStoreURL)
        try store.addItem(ItemDraft(name: "Tent pegs"))
        try store.close()

        let kept = try #require(try lists.remove(camping), "the device had a copy: it is kept")
        #expect(kept.path.hasPrefix(configuration.sandbox.root.appendingPathComponent("removed-lists").path))
        #expect(FileManager.default.fileExists(atPath: kept.appendingPathComponent("\(camping.storeName).sqlite").path))
        #expect(!FileManager.default.fileExists(atPath: campingConfiguration.localStoreURL.path))
        #expect(try lists.all().map(\.name) == ["Groceries"])
        #expect(throws: NamedListError.removed("Camping", by: "kitchen")) { try lists.resolve("Camping") }

        let again = try lists.create("Camping")
        #expect(again.storeName != camping.storeName, "a new list of the old name is a new store")
        #expect(try lists.resolve("camping") == again)
        #expect(try lists.remove(try lists.create("Never opened")) == nil, "no copy here, nothing kept")
    }

    @Test func badNamesAndBadRequestsAreRefusedAndChangeNothing() throws {
        let (_, lists) = try localDevice("kitchen")
        let camping = try lists.create("Camping")
        let before = try lists.all()
        /// The list error `change` threw; nil when it threw none (or another error).
        func refusal(_ change: () throws -> Any?) -> NamedListError? {
            do { _ = try change() } catch let error as NamedListError { return error } catch { return nil }
            return nil
        }
        for name in ["", "   ", "two\nlines", String(repeating: "x", count: 101)] {
            if case .invalidName = refusal({ try lists.create(name) }) { continue }
            Issue.record("\(name.debugDescription) was not refused as a name")
        }
        #expect(refusal { try lists.create("groceries") } == .nameInUse("groceries"), "the default list's name")
        #expect(refusal { try lists.create(" CAMPING ") } == .nameInUse("CAMPING"))
        #expect(refusal { try lists.rename(camping, to: "Groceries") } == .nameInUse("Groceries"))
        #expect(refusal { try lists.remove(try lists.resolve("Groceries")) } == .defaultList)
        #expect(refusal { try lists.resolve("Nowhere") } == .unknown("Nowhere"))
        #expect(try lists.all() == before)
        #expect(try lists.rename(camping, to: "camping").name == "camping", "a list may take its own name again")
    }

    @Test func twoListsMadeApartUnderOneNameAreNeverPickedSilently() throws {
        let (a, listsOfA) = try cloudDevice("a")
        let (b, listsOfB) = try cloudDevice("b")
        try setOffline(a, true)
        try setOffline(b, true)
        let ofA = try listsOfA.create("Dinner")
        let ofB = try listsOfB.create("dinner")
        try setOffline(a, false)
        try setOffline(b, false)
        _ = try listsOfA.all()  // each device's next read announces what it made offline
        _ = try listsOfB.all()

        for lists in [listsOfA, listsOfB] {
            #expect(
                Set(try lists.all().map(\.storeName)) == [GroceryStore.defaultStoreName, ofA.storeName, ofB.storeName])
            #expect(throws: NamedListError.self) { try lists.resolve("DINNER") }
            do {
                _ = try lists.resolve("Dinner")
                Issue.record("one name resolved to one of two lists")
            } catch let NamedListError.ambiguous(name, candidates) {
                #expect(name == "Dinner")
                #expect(Set(candidates.map(\.storeName)) == [ofA.storeName, ofB.storeName])
            }
            #expect(try lists.resolve(ofA.storeName).createdBy == "a", "a store name names one")
            #expect(try lists.resolve(ofB.storeName).createdBy == "b")
        }
    }

    @Test func aMergedListIsFoundInTheListItWentIntoFollowingEveryMerge() throws {
        let (_, lists) = try localDevice("kitchen")
        let supper = try lists.create("Supper")
        let dinner = try lists.create("Dinner")
        let feast = try lists.create("Feast")

        let merged = try lists.recordMerge(supper, into: dinner)
        #expect(merged.isRemoved && merged.mergedInto == dinner.storeName && merged.removedBy == "kitchen")
        #expect(try lists.all().map(\.name) == ["Groceries", "Dinner", "Feast"])
        #expect(try lists.resolve("supper") == dinner, "its name leads to the survivor")
        #expect(try lists.resolve(supper.storeName) == dinner, "so does its store name, as a script names it")
        #expect(try lists.merged(into: dinner.storeName).map(\.storeName) == [supper.storeName])

        try lists.recordMerge(dinner, into: feast)
        #expect(try lists.resolve("Supper") == feast, "a merge of the survivor is followed")
        #expect(try lists.merged(into: feast.storeName).map(\.storeName) == [dinner.storeName])

        _ = try lists.remove(feast)
        #expect(throws: NamedListError.removed("Supper", by: "kitchen"), "the chain ends in a list removed outright") {
            try lists.resolve("Supper")
        }
        #expect(throws: NamedListError.defaultList) {
            try lists.recordMerge(try lists.resolve("Groceries"), into: supper)
        }
    }

    @Test func aRenameMadeOfflineWaitsAndIsPublishedWhenTheFolderIsBack() throws {
        let (a, listsOfA) = try cloudDevice("a")
        let (_, listsOfB) = try cloudDevice("b")
        let weekly = try listsOfA.create("Weekly")
        #expect(try listsOfB.all().map(\.name) == ["Groceries", "Weekly"], "announced to the account")

        try setOffline(a, true)
        clock.advance(60)
        _ = try listsOfA.rename(weekly, to: "Monthly")
        #expect(try listsOfA.all().map(\.name) == ["Groceries", "Monthly"], "kept on the device")
        #expect(try listsOfB.all().map(\.name) == ["Groceries", "Weekly"], "not published while offline")

        try setOffline(a, false)
        _ = try listsOfA.all()
        #expect(try listsOfB.all().map(\.name) == ["Groceries", "Monthly"])
        #expect(try listsOfB.resolve("Monthly").storeName == weekly.storeName)
    }

    @Test(arguments: [true, false])
    func twoRenamesResolveByTheirOwnTimeOnEveryDevice(offlineRenameFirst: Bool) throws {
        let (a, listsOfA) = try cloudDevice("a")
        let (_, listsOfB) = try cloudDevice("b")
        let weekly = try listsOfA.create("Weekly")
        _ = try listsOfB.all()
        try setOffline(a, true)
        clock.advance(60)
        if offlineRenameFirst {
            _ = try listsOfA.rename(weekly, to: "From A")
            clock.advance(60)
            _ = try listsOfB.rename(weekly, to: "From B")
        } else {
            _ = try listsOfB.rename(weekly, to: "From B")
            clock.advance(60)
            _ = try listsOfA.rename(weekly, to: "From A")
        }
        try setOffline(a, false)
        let later = offlineRenameFirst ? "From B" : "From A"
        for lists in [listsOfA, listsOfB, listsOfA] {
            #expect(try lists.all().map(\.name) == ["Groceries", later], "the later rename wins, whenever it arrived")
        }
    }

    @Test func aRemovalMadeOfflineIsFinalEvenAgainstALaterRename() throws {
        let (a, listsOfA) = try cloudDevice("a")
        let (_, listsOfB) = try cloudDevice("b")
        let weekly = try listsOfA.create("Weekly")
        _ = try listsOfB.all()
        try setOffline(a, true)
        _ = try listsOfA.remove(weekly)
        clock.advance(60)
        _ = try listsOfB.rename(weekly, to: "Daily")
        try setOffline(a, false)
        for lists in [listsOfA, listsOfB] {
            #expect(try lists.all().map(\.name) == ["Groceries"])
            #expect(throws: NamedListError.removed("Daily", by: "a")) { try lists.resolve("Daily") }
        }
    }
}
