import ArgumentParser
import Foundation
import StoreLifecycle

extension CloudCommand {
    /// `grocery-dude cloud release PEER LOG`: skip a refused log that holds its peer back.
    struct Release: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "release",
            abstract: "Skip a refused log that holds its device back; the changes in that log are lost on this device.",
            discussion: """
                A log another device wrote that breaks the rules is refused, and that device's later logs wait \
                behind it (`cloud status` lists them). Releasing it applies the later logs from the next sync on. \
                The file stays in the cloud folder. Without --yes, asks first, saying what is lost.
                """)
        @ParentCommand var root: GroceryDudeCommand
        @Argument(help: "The peer ID of the device whose log is held (see `cloud status`).") var peer: String
        @Argument(help: "The refused log's number.") var log: Int64
        @Flag(help: "Do not ask for confirmation.") var yes = false

        func run() throws {
            let device = try root.global.openDevice(command: "cloud release")
            let sync = try device.requireSync()
            guard let refusal = try sync.heldBackLog(peer: peer, seq: log) else {
                throw ValidationErrorMessage(
                    "log \(log) of peer \(peer) is not refused here: nothing to release (see `grocery-dude cloud status`)"
                )
            }
            let lost = refusal.contentSummary
            if !yes {
                guard isatty(STDIN_FILENO) == 1 else {
                    throw ValidationErrorMessage(
                        "releasing loses the changes of \(refusal.summary); pass --yes to do it from a script")
                }
                print("Refused: \(refusal.summary)")
                print(
                    "Releasing skips this log for good on this device: \(lost). Later logs of that device are then applied."
                )
                print("Release it? [y/N] ", terminator: "")
                fflush(nil)
                guard ["y", "yes"].contains(readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? "") else {
                    throw ValidationErrorMessage("not confirmed; the log still holds its device back")
                }
            }
            try sync.release(refusal)
            device.coordinator.journal(event: "peerReleased", detail: "skipped \(refusal.summary) (\(lost))")
            let applied = try sync.importPending()
            print(
                "Released log \(log) of \(refusal.device.map { "device \($0.debugDescription)" } ?? "peer \(peer)"); imported \(applied) later log\(applied == 1 ? "" : "s")."
            )
        }
    }
}
