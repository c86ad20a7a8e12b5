import ViewModels

/// Keys over the Cloud screen.
extension AppController {
    func handleCloud(_ key: Key) -> Outcome {
        let cloud = app.cloud
        switch key {
        case .character("c"):
            cloud.toggleSync()
        case .character("s"): cloud.syncNow()
        case .character("o"): cloud.setOffline(!cloud.isOffline)
        case .character("i"): ask(.signIn, "Sign in to account:", app.summary.account ?? "")
        case .character("O"): cloud.requestSignOut()
        case .character("R"): cloud.requestRebuild()
        case .character("X"): cloud.requestStartOver()
        case .character("K"): cloud.requestRelease()
        case .character("M"): cloud.requestMergeKept()
        case .up, .down, .pageUp, .pageDown, .home, .end:
            // The screen scrolls when the terminal is shorter than its rows.
            let height = max(1, screenHeight - AppScreen.chrome)
            let last = CloudView.maximumScroll(cloud, height: height)
            switch key {
            case .up: ui.cloudScroll -= 1
            case .down: ui.cloudScroll += 1
            case .pageUp: ui.cloudScroll -= height - 1
            case .pageDown: ui.cloudScroll += height - 1
            case .home: ui.cloudScroll = 0
            default: ui.cloudScroll = last
            }
            ui.cloudScroll = min(max(0, ui.cloudScroll), last)
        default: return .ignored
        }
        return .handled
    }
}
