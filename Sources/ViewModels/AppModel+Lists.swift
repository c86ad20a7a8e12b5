import Foundation
import GroceryModel
import Logging
import StoreLifecycle
import TextAndFiles

/// Named lists: the switcher (`L`), a new list, opening another.
extension AppModel {
    var namedLists: NamedLists { NamedLists(configuration: coordinator.configuration) }

    /// Reads the name of the list on screen again (it may have been renamed on another device).
    public func refreshListName() {
        showListName(from: (try? namedLists.all()) ?? [])
    }

    /// Takes the name of the list on screen from `lists`, when they have it.
    private func showListName(from lists: [NamedList]) {
        if let shown = lists.first(where: { $0.storeName == coordinator.configuration.storeName }) {
            listName = shown.name
        }
    }

    /// `L`: the device's lists, to switch to another or make a new one.
    public func openListSwitcher() {
        guard isInputEnabled, editor == nil, dialog == nil else { return }
        do {
            let lists = try namedLists.all()
            listSwitcher = ListSwitcher(lists: lists, current: coordinator.configuration.storeName)
            showListName(from: lists)  // renamed on another device meanwhile: the status line follows
        } catch {
            say("Cannot read the lists: \(AppErrorText.reason(error))")
        }
    }

    public func closeListSwitcher() { listSwitcher = nil }

    public func moveListSwitcher(by delta: Int) { listSwitcher?.move(by: delta) }
    public func moveListSwitcher(to index: Int) { listSwitcher?.move(to: index) }
    /// A letter in the switcher: jumps to the list it spells; `false` when none matches.
    public func typeAheadInListSwitcher(_ character: Character, now: TimeInterval = Message.now) -> Bool {
        listSwitcher?.typeAhead(character, now: now) ?? false
    }

    /// Enter in the switcher: opens the selected list, or — on "new list…" — returns `true`: a
    /// name is needed (``createList(named:)``).
    public func chooseInListSwitcher() -> Bool {
        guard let switcher = listSwitcher else { return false }
        switch switcher.selected {
        case .new: return true
        case .list(let list):
            listSwitcher = nil
            switchList(to: list)
            return false
        }
    }

    /// Makes a new list and opens it. Throws when the name is refused (the line stays open).
    public func createList(named name: String) throws {
        let list = try namedLists.create(name)
        listSwitcher = nil
        switchList(to: list)
    }

    /// `+` in the switcher: asks whether to merge the selected list with the other list of its
    /// name (``ListSwitcher/offeredMerge``); `false` when it shares its name with none.
    public func askToMergeInListSwitcher() -> Bool {
        guard let offered = listSwitcher?.offeredMerge else { return false }
        listSwitcher = nil
        listMergeAsked = offered
        return true
    }

    /// The question `+` asks: which list goes into which, who made each, their stores.
    var listMergeDialog: Dialog? {
        guard let asked = listMergeAsked else { return nil }
        return .confirm(
            title: "Merge Lists?",
            message:
                "\(asked.from.describedWithStore) goes into \(asked.into.describedWithStore) on every device. Every item of both is kept; items of one name become one.",
            action: "Merge")
    }

    /// The answer to ``listMergeDialog``: merges as `lists merge` does, then shows the survivor.
    func answerListMerge(_ accepted: Bool) {
        guard let asked = listMergeAsked else { return }
        listMergeAsked = nil
        guard accepted else { return say("Not merged") }
        do {
            let outcome = try coordinator.mergeLists(asked.from, into: asked.into)
            if coordinator.configuration.storeName != asked.into.storeName {
                switchList(to: asked.into)
            } else {
                refreshVisible()
            }
            var words = "Merged \(asked.from.name) into \(asked.into.name): \(outcome.copied) copied"
            if outcome.deduplicated > 0 {
                words += ", \(outcome.deduplicated) duplicate\(outcome.deduplicated == 1 ? "" : "s") merged"
            }
            say(words)
        } catch {
            say("Cannot merge the lists: \(AppErrorText.reason(error))")
        }
    }

    /// The list on screen was merged into `survivor` on another device: the app opens it (its
    /// items are there, and what this device saved meanwhile is carried there). Removed
    /// outright: the app stays on it, said once, until the user opens another (`L`).
    func listGone(_ list: NamedList, survivor: NamedList?, message: String) {
        guard list.storeName == coordinator.configuration.storeName else { return }
        if let survivor { switchList(to: survivor) }
        say(message)
    }

    /// Opens `list` through a transition like an account switch: input waits, the screens drop
    /// their rows, and refetch from the list's store.
    func switchList(to list: NamedList) {
        do {
            if try coordinator.switchStore(named: list.storeName) {
                listName = list.name
                refreshSummary(force: true)  // the status line names the list at once
                say("List: \(list.name)")
            }
        } catch {
            say("Cannot open the list \(list.name): \(AppErrorText.reason(error))")
        }
    }
}
