import StoreLifecycle
import ViewModels

/// Keys over the Cloud screen.
extension AppController {
    func handleCloud(_ key: Key) -> Outcome {
        let cloud = app.cloud
        switch key {
        case .character("c"):
            cloud.toggleSync()
        case .character("s"): cloud.syncNow()
        case .character("o"): cloud.setOffline(!(cloud.status?.cloud?.offline ?? false))
        case .character("i"): ask(.signIn, "Sign in to account:", app.summary.account ?? "")
        case .character("O"): cloud.requestSignOut()
        case .character("R"): cloud.requestRebuild()
        case .character("X"): cloud.requestStartOver()
        case .character("K"): cloud.requestRelease()
        default: return .ignored
        }
        return .handled
    }
}
