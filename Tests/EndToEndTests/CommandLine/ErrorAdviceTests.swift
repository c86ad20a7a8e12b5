import GroceryModel
import StoreLifecycle
import Testing

@testable import GroceryDudeCLI

/// The lower layers' errors name no command; the command line adds its advice after them, so
/// that what it prints reads as it did when the advice was in the errors themselves.
@Suite("The command line's advice on errors")
struct ErrorAdviceTests {
    func printed(_ error: any Error) -> String { "\(ErrorAdvice.advised(error))" }

    @Test func theAdviceFollowsTheErrorsOwnMessage() {
        #expect(
            printed(NamedListError.unknown("Dinner")) == "no list named \"Dinner\" (grocery-dude lists ls shows them)")
        #expect(
            printed(StoreRemovalError.cloudDisabled)
                == "cloud sync is disabled on this device: grocery-dude cloud enable")
        #expect(printed(StoreRemovalError.deviceOffline) == "the device is offline (grocery-dude cloud online)")
        #expect(
            printed(GroceryError.notInModelVersion(property: "note", since: 2, store: 1)).hasSuffix(
                "nothing was changed — run without --model-version 1 to upgrade"))
        #expect(
            printed(StoreRemovalError.earlierBuilds(["pantry"])).hasSuffix(
                "marks the cloud folder), or start over with --despite-earlier-builds"))
    }

    @Test func anErrorWithoutAdviceIsPassedOnAsItIs() {
        let error = StoreRemovalError.unexported(2)
        #expect(ErrorAdvice.advised(error) as? StoreRemovalError == error)
        #expect(!StoreRemovalError.cloudDisabled.description.contains("grocery-dude"))
    }
}
