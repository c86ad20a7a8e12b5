import ViewModels

/// Keys over the list switcher (`L`).
extension AppController {
    /// Keys over the list switcher, as over the editor's pickers (``ChooserKey``): Enter opens
    /// the list, or asks the new list's name.
    func handleListSwitcher(_ key: Key) -> Outcome {
        guard let switcher = app.listSwitcher else { return .ignored }
        // `+`: the selected list and the other of its name made one (asks first).
        if key == .character("+"), !switcher.typeAhead.isUnderWay(now: Message.now) {
            if !app.askToMergeInListSwitcher() {
                app.hint("\(switcher.selected.label) shares its name with no other list: nothing to merge")
            }
            return .handled
        }
        let page = max(1, screenHeight - AppScreen.chrome - 3)
        guard let action = ChooserKey(key, page: page) else { return .ignored }
        switch action {
        case .move(let delta): app.moveListSwitcher(by: delta)
        case .first: app.moveListSwitcher(to: 0)
        case .last: app.moveListSwitcher(to: Int.max)
        case .choose: if app.chooseInListSwitcher() { ask(.newList, "New list:") }
        case .cancel: app.closeListSwitcher()
        case .type(let character): listTypeAhead(character, switcher)
        }
        return .handled
    }

    func listTypeAhead(_ character: Character, _ switcher: ListSwitcher) {
        guard !app.typeAheadInListSwitcher(character) else { return }
        app.hint("No list matches \"\(app.listSwitcher?.typeAhead.text ?? String(character))\"")
    }
}
