import Foundation
import GroceryModel
import StoreLifecycle
import TestSupport
import Testing
import ViewModels

@testable import TerminalUI

/// A message belongs to the moment it was made: the newest shows, it fades a few seconds after
/// it was made, and once it has left the line no screen switch brings it back.
@Suite("Messages on the message line")
struct MessageTimerTests {
    let directory = TemporaryDirectory("messages")

    func controller() throws -> AppController {
        let config = try StoreConfiguration.temporary(in: directory, device: "kitchen")
        let app = AppModel(coordinator: try StoreCoordinator(configuration: config, claimDevice: { true }))
        try app.coordinator.current.store.addItem(ItemDraft(name: "Milk"))
        app.show(.prepare)
        return AppController(app: app)
    }

    func type(_ text: String, _ controller: AppController) {
        for character in text { controller.handle(.character(character)) }
        controller.handle(.enter)
    }

    @Test func aMessageFadesFromWhenItWasMade() {
        var timer = MessageTimer()
        let made = Message("Listed Milk", made: 100)
        var changes = [timer.update(made, now: 100)]
        #expect(timer.visible == "Listed Milk")
        changes.append(timer.update(made, now: 104.9))
        #expect(timer.visible == "Listed Milk")
        changes.append(timer.update(made, now: 105))
        #expect(timer.visible == nil)
        changes.append(timer.update(Message("Old news", made: 100), now: 106))
        #expect(timer.visible == nil, "a message first seen after its time never shows")
        #expect(changes == [true, false, true, false], "a redraw only when what shows changes")
    }

    @Test func anOlderMessageNeverComesBackAndTheNewestReplacesIt() {
        var timer = MessageTimer()
        let first = Message("Added Tea", made: 10)
        let second = Message("3 changes from phone", made: 11)
        timer.update(first, now: 10)
        timer.update(second, now: 11)
        #expect(timer.visible == "3 changes from phone")
        timer.update(first, now: 12)
        #expect(timer.visible == nil, "an older one does not come back when it is the screen's newest again")
        timer.update(second, now: 12)
        #expect(timer.visible == nil, "nor does one that left the line")
        let same = Message("3 changes from phone", made: 13)
        timer.update(same, now: 13)
        #expect(timer.visible == "3 changes from phone", "the same words made again are a new message")
    }

    /// The cases: back on a screen after two switches, and out of the editor.
    @Test func switchingScreensOrClosingTheEditorShowsNoEarlierMessage() throws {
        let controller = try controller()
        var timer = MessageTimer()
        func shown() -> String? {
            timer.update(controller.app.screenMessage)
            return timer.visible
        }
        controller.handle(.character("a"))
        type("Tea", controller)
        #expect(shown() == "Added Tea")
        controller.handle(.character("3"))
        #expect(shown() == nil)
        controller.handle(.character("1"))
        #expect(shown() == nil, "switching back brings no earlier message")

        controller.handle(.enter)
        #expect(controller.app.editor != nil)
        #expect(shown() == nil)
        controller.handle(.character("q"))
        #expect(controller.app.editor == nil)
        #expect(shown() == nil, "closing the editor brings no earlier message")

        controller.handle(.character(" "))
        let toggled = shown()
        #expect(toggled != nil && toggled == controller.app.prepare.message, "a new one shows")
    }
}
