import ViewModels

/// The help and the messages in full: scrolled by the keys, closed by any other.
extension AppController {
    /// `m`: the latest messages and the recent transitions in full, read fresh.
    func openFullText() {
        app.cloud.refresh(force: true)
        ui.fullTextVisible = true
        ui.fullTextScroll = 0
    }

    /// Keys over the help or the messages in full: arrows, j k, pages and g G scroll; any other
    /// key closes. Returns whether the overlay stays open.
    func scrollOverlay(_ key: Key, _ scroll: inout Int, last: Int) -> Bool {
        let page = max(1, screenHeight - 6)
        switch key {
        case .down, .character("j"): scroll += 1
        case .up, .character("k"): scroll -= 1
        case .pageDown, .character(" "): scroll += page
        case .pageUp: scroll -= page
        case .home, .character("g"): scroll = 0
        case .end, .character("G"): scroll = last
        case .resize: break
        default:
            scroll = 0
            return false
        }
        scroll = min(max(0, scroll), last)
        return true
    }

    func handleHelp(_ key: Key) -> Outcome {
        let current = HelpView.section(for: app.tab, editing: app.editor != nil)
        ui.helpVisible = scrollOverlay(
            key, &ui.helpScroll,
            last: HelpView.maximumScroll(height: screenHeight, current: current, screenWidth: screenWidth))
        return .handled
    }

    func handleItemHistory(_ key: Key) -> Outcome {
        let last = ItemHistoryView.maximumScroll(self, width: screenWidth, height: screenHeight)
        ui.historyVisible = app.editor != nil && scrollOverlay(key, &ui.historyScroll, last: last)
        return .handled
    }

    func handleFullText(_ key: Key) -> Outcome {
        let last = FullTextView.maximumScroll(self, width: screenWidth, height: screenHeight)
        ui.fullTextVisible = scrollOverlay(key, &ui.fullTextScroll, last: last)
        return .handled
    }
}
