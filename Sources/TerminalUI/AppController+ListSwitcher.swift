import ViewModels

/// Keys over the list switcher (`L`).
extension AppController {
    /// Keys over the list switcher, as over the editor's pickers: arrows, j k, pages, g G move;
    /// letters jump to the list they spell (while typing, j k g G q and Space are letters too;
    /// `/` starts typing); Enter opens the list or asks the new list's name; Esc or `q` closes.
    func handleListSwitcher(_ key: Key) -> Outcome {
        guard let switcher = app.listSwitcher else { return .ignored }
        let page = max(1, screenHeight - AppScreen.chrome - 3)
        if case .character(let character) = key, switcher.typeAhead.isUnderWay(now: Message.now), character != "/" {
            listTypeAhead(character, switcher)
            return .handled
        }
        switch key {
        case .up, .character("k"): app.moveListSwitcher(by: -1)
        case .down, .character("j"): app.moveListSwitcher(by: 1)
        case .pageUp: app.moveListSwitcher(by: -page)
        case .pageDown: app.moveListSwitcher(by: page)
        case .home, .character("g"): app.moveListSwitcher(to: 0)
        case .end, .character("G"): app.moveListSwitcher(to: Int.max)
        case .enter, .character(" "):
            if app.chooseInListSwitcher() { ask(.newList, "New list:") }
        case .escape, .character("q"): app.closeListSwitcher()
        case .character("/"): app.beginTypeAheadInListSwitcher()
        case .character(let character): listTypeAhead(character, switcher)
        default: return .ignored
        }
        return .handled
    }

    func listTypeAhead(_ character: Character, _ switcher: ListSwitcher) {
        guard !app.typeAheadInListSwitcher(character) else { return }
        app.hint("No list matches \"\(app.listSwitcher?.typeAhead.text ?? String(character))\"")
    }
}
