import StoreLifecycle
import Testing

@testable import ViewModels

/// The screens word the errors' advice with the app's keys, never with a command to type.
@Suite("The app's advice on errors")
struct AppErrorTextTests {
    @Test func theScreensAdviseKeys() {
        #expect(
            AppErrorText.reason(StoreRemovalError.cloudDisabled)
                == "cloud sync is disabled on this device (c on the Cloud screen turns it on)")
        #expect(AppErrorText.reason(StoreRemovalError.deviceOffline).hasSuffix("(o on the Cloud screen goes online)"))
        #expect(AppErrorText.reason(NamedListError.unknown("Dinner")) == "no list named \"Dinner\" (L shows the lists)")
        for error: any Error in [
            StoreRemovalError.cloudDisabled, StoreRemovalError.deviceOffline, StoreRemovalError.earlierBuilds(["a"]),
            NamedListError.unknown("Dinner"), NamedListError.removed("Dinner", by: "kitchen"), SeedError.notInCloud,
        ] {
            let reason = AppErrorText.reason(error)
            #expect(!reason.contains("grocery-dude ") && !reason.contains("--"), "\(reason)")
        }
    }
}
