import Foundation
import GroceryModel
import Logging
import StoreLifecycle
import TextAndFiles

/// Which screen shows, the item editor opened and closed over it, undo and redo.
extension AppModel {
    /// Shows a screen. Prepare deduplicates in the background each time it appears.
    public func show(_ tab: Tab) {
        guard isInputEnabled else { return }
        self.tab = tab
        switch tab {
        case .prepare: prepare.appear()
        case .cloud: cloud.refresh(force: true)
        default: refreshList()
        }
    }

    /// The item list shown, if the screen is Prepare or Shop.
    public var currentList: ItemListViewModel? {
        switch tab {
        case .prepare: prepare
        case .shop: shop
        default: nil
        }
    }

    /// The units, home locations or shop aisles list shown, if the screen is one of them.
    public var currentCatalog: CatalogListViewModel? {
        switch tab {
        case .units: units
        case .homeLocations: homeLocations
        case .shopAisles: shopAisles
        default: nil
        }
    }

    /// The newest message for the screen shown: its own (the editor's when it is open) or an
    /// app-wide one, for the line a message shares with the key hints. How long it shows is the
    /// terminal's business (it fades a few seconds after it was made).
    public var screenMessage: Message? {
        let own =
            if let editor { editor.latestMessage } else if tab == .cloud { cloud.latestMessage } else {
                currentList?.latestMessage ?? currentCatalog?.latestMessage
            }
        return Message.newest(own, latestStatus)
    }

    /// Opens the item editor on an item (marking it modified, as the book does).
    ///
    /// In the editor `s` saves and stays; `q` or Esc leave (``leaveEditor()``), asking first when
    /// there are unsaved changes.
    public func openEditor(_ id: ItemID) {
        guard isInputEnabled, editor == nil else { return }
        do {
            editor = try ItemEditorViewModel(
                store: coordinator.current.store, id: id, undo: undoHistory, shop: shop.shop, shopName: shownShop?.name)
        } catch {
            say("Cannot open the item: \(ErrorText.reason(error))")
        }
    }

    /// `q` or Esc in the editor: it closes at once when nothing is unsaved; otherwise it asks
    /// "Unsaved changes to …": Save (``answerDialog(_:)`` with `true`), Discard (`false`), or Esc
    /// back to editing (``cancelDialog()``).
    public func leaveEditor() {
        guard let editor else { return }
        if editor.hasUnsavedChanges { editor.askBeforeLeaving() } else { closeEditor() }
    }

    /// Closes the editor, saving its edits first unless `discard`. When the save fails the
    /// editor stays open, as it was, saying which field is wrong; discarding always closes it.
    public func closeEditor(discard: Bool = false) {
        guard let editor else { return }
        editor.dismissDialog()
        if editor.hasUnsavedChanges {
            if discard {
                say("Changes to \(editor.savedName) discarded")
            } else {
                // Changed on another device meanwhile: asked first, then leaves.
                guard editor.requestSave(leaving: true) else { return }
                say(editor.message ?? "Saved")
            }
        }
        self.editor = nil
        refreshList()
        currentList?.select(editor.id)
    }

    /// Undoes the last add, toggle, edit, delete or clear made on this device. Undoing an add
    /// of an item another device changed since asks first.
    public func undo() {
        guard isInputEnabled, editor == nil else { return }
        if let question = undoHistory.questionBeforeUndo(in: coordinator.current.store) {
            undoAsked = question
            return
        }
        say(undoHistory.undoLast(in: coordinator.current.store))
        refreshVisible()
    }

    /// The answer to the question ``undo()`` asked.
    func answerUndo(_ accepted: Bool) {
        undoAsked = nil
        guard accepted else { return say("Not undone") }
        say(undoHistory.undoLast(in: coordinator.current.store))
        refreshVisible()
    }

    /// Redoes the last change undone (`U`, Ctrl-R).
    public func redo() {
        guard isInputEnabled, editor == nil else { return }
        say(undoHistory.redoLast(in: coordinator.current.store))
        refreshVisible()
    }
}
