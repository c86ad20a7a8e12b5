import Foundation
import StoreLifecycle
import TestSupport
import Testing
import Ubiquity

@Suite("Transition journal")
struct TransitionJournalTests {
    let directory = TemporaryDirectory("journal")

    @Test func theJournalListsTheMostRecentFirstAndSkipsDamagedLines() throws {
        let sandbox = try DeviceSandbox(dataDirectory: directory.url, device: "kitchen")
        try sandbox.prepare()
        let journal = TransitionJournal(sandbox: sandbox)
        let cloudStore = StoreDescription(role: .cloud, account: "a", path: "/x")
        try journal.record(
            StoreChange(transition: .accountAdded, removed: [], added: [cloudStore]), detail: "one", by: "test")
        let handle = try FileHandle(forWritingTo: journal.url)
        handle.seekToEndOfFile()
        handle.write(Data("{\"truncated\n".utf8))
        try handle.close()
        try journal.record(
            StoreChange(transition: .contentRemoved, removed: [cloudStore], added: [cloudStore]), detail: "two",
            by: "test")
        #expect(journal.entries().map(\.detail) == ["two", "one"])
        #expect(journal.entries().first?.removed == ["cloud store of account \"a\""])
    }
}
