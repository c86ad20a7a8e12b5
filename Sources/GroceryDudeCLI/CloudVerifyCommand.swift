import ArgumentParser
import Foundation
import StoreLifecycle
import TextAndFiles

extension CloudCommand {
    /// `grocery-dude cloud verify`: syncs, publishes this device's digest, and compares it with
    /// the other devices' that applied the same logs. Exits non-zero when one diverged.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Prove this device holds the same data as the other devices (exits 1 when one diverged).",
            discussion: """
                Devices that applied exactly the same logs must hold the same data; each publishes a digest of \
                its data, and this compares them. A divergence names the objects that differ once both \
                devices have run `cloud verify` (or synced) since it was found. Two devices that applied \
                different logs are compared once both have synced; when one of them waits for a log that is \
                not in the cloud folder (or is damaged there) and no baseline covers, it says which file, \
                whose, and what ends the wait, and exits 1.
                """)
        @ParentCommand var root: GroceryDudeCommand
        @Flag(help: "Print JSON.") var json = false

        func run() throws {
            let device = try root.global.openDevice(command: "cloud verify")
            let sync = try device.requireSync()
            guard !device.isOffline else {
                throw ValidationErrorMessage(
                    device.coordinator.configuration.cloudFolderProblem
                        ?? "this device is offline: grocery-dude cloud online")
            }
            if let note = try sync.auditOwnHistory() {
                device.coordinator.journal(event: "historyRepublished", detail: note)
                FileHandle.standardError.write(Data("note: \(note)\n".utf8))
            }
            let report = try sync.verify()
            for line in report.badFiles { FileHandle.standardError.write(Data("warning: skipped \(line)\n".utf8)) }
            print(json ? Self.json(report) : Self.text(report).joined(separator: "\n"))
            if !report.diverging.isEmpty || !report.stuck.isEmpty { throw ExitCode.failure }
        }

        static func short(_ peer: String) -> String { peer.count > 8 ? peer.prefix(8) + "…" : peer }

        static func name(_ object: VerifyResult.Difference) -> String {
            object.entity + " "
                + (object.label.map { $0.debugDescription + " (\(short(object.id)))" } ?? short(object.id))
        }

        static func text(_ report: VerifyResult) -> [String] {
            var lines: [String] = []
            if let reason = report.notComparableHere {
                lines.append(
                    "Nothing to compare on this device now: \(reason). Run `grocery-dude cloud verify` again once it has synced."
                )
            }
            for peer in report.agreeing {
                lines.append(
                    "Agrees with \(peer.device) (peer \(short(peer.peer))) on \(report.logs) log\(report.logs == 1 ? "" : "s")."
                )
            }
            for divergence in report.diverging {
                let named = divergence.objects.filter { $0.kind != .inDifferingBucket }
                let what: String
                if named.isEmpty {
                    let candidates = divergence.objects.map(name)
                    what =
                        "the objects in bucket\(divergence.buckets.count == 1 ? "" : "s") \(divergence.buckets.joined(separator: ", ")) differ"
                        + (candidates.isEmpty ? "" : " (on this device: \(candidates.joined(separator: ", ")))")
                        + "; run `grocery-dude cloud verify` on \(divergence.device) to name them"
                } else {
                    let differ = named.filter { $0.kind == .differs }.map(name)
                    let here = named.filter { $0.kind == .onlyHere }.map(name)
                    let there = named.filter { $0.kind == .onlyThere }.map(name)
                    what =
                        ([
                            differ.isEmpty ? nil : "objects \(differ.joined(separator: ", ")) differ",
                            here.isEmpty ? nil : "only this device holds \(here.joined(separator: ", "))",
                            there.isEmpty ? nil : "only \(divergence.device) holds \(there.joined(separator: ", "))",
                        ]
                        .compactMap { $0 }).joined(separator: "; ")
                }
                lines.append(
                    "DIVERGED from \(divergence.device) (peer \(short(divergence.peer))): \(what). "
                        + "Run `grocery-dude cloud rebuild` on the device whose data is wrong.")
            }
            for peer in report.stuck {
                let skips = peer.skippable.map { "`grocery-dude cloud release \($0.peer) \($0.seq)`" }
                lines.append(
                    "CANNOT AGREE with \(peer.device ?? "peer \(short(peer.peer))") (peer \(short(peer.peer))) as the cloud folder is: \(peer.reason)"
                        + (skips.isEmpty
                            ? "."
                            : ". On the waiting device, \(skips.joined(separator: " and ")) "
                                + (skips.count == 1 ? "skips it." : "skip them."))
                )
            }
            for peer in report.notComparable {
                lines.append("Not comparable with \(peer.device ?? "peer \(short(peer.peer))") now: \(peer.reason).")
            }
            if lines.isEmpty { lines.append("No other device has synced with this store yet: nothing to compare.") }
            return lines
        }

        static func json(_ report: VerifyResult) -> String {
            func list(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }
            var writer = JSONObjectWriter()
            writer.add("logs", .integer(Int(report.logs)))
            writer.add("notComparableHere", .string(report.notComparableHere))
            writer.add(
                "agreeing",
                .raw(
                    list(
                        report.agreeing.map {
                            "{\"device\": \(JSONText.quoted($0.device)), \"peer\": \(JSONText.quoted($0.peer))}"
                        })))
            writer.add(
                "diverging",
                .raw(
                    list(
                        report.diverging.map { divergence in
                            let objects = list(
                                divergence.objects.map { object in
                                    "{\"entity\": \(JSONText.quoted(object.entity)), \"id\": \(JSONText.quoted(object.id)), "
                                        + "\"label\": \(object.label.map(JSONText.quoted) ?? "null"), \"kind\": \(JSONText.quoted(object.kind.rawValue))}"
                                })
                            return
                                "{\"device\": \(JSONText.quoted(divergence.device)), \"peer\": \(JSONText.quoted(divergence.peer)), "
                                + "\"buckets\": \(list(divergence.buckets.map(JSONText.quoted))), \"objects\": \(objects)}"
                        })))
            writer.add(
                "notComparable",
                .raw(
                    list(
                        report.notComparable.map {
                            "{\"device\": \($0.device.map(JSONText.quoted) ?? "null"), \"peer\": \(JSONText.quoted($0.peer)), \"reason\": \(JSONText.quoted($0.reason))}"
                        })))
            writer.add(
                "stuck",
                .raw(
                    list(
                        report.stuck.map {
                            let skippable = list(
                                $0.skippable.map { "{\"peer\": \(JSONText.quoted($0.peer)), \"seq\": \($0.seq)}" })
                            return
                                "{\"device\": \($0.device.map(JSONText.quoted) ?? "null"), \"peer\": \(JSONText.quoted($0.peer)), \"reason\": \(JSONText.quoted($0.reason)), \"skippable\": \(skippable)}"
                        })))
            writer.add("badFiles", .raw(list(report.badFiles.map(JSONText.quoted))))
            return writer.text
        }
    }
}
