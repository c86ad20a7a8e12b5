import Foundation
import GRDB
import TextAndFiles

/// A device whose wall clock was found ahead of this device's by more than
/// ``LocalClock/trustedAhead``: one of its logs or baselines said it was written later than this
/// device's clock then read, plus a day. Nothing legitimate does that — a file written offline
/// arrives late, never early — so one of the two clocks is wrong, and the user is told.
///
/// Its readings still order edits like any other (every device must decide alike, and none can
/// tell from the files whose clock is right): its edits win over edits made at the same time
/// elsewhere until its clock is set right. They never win over edits made after seeing them,
/// and they do not move this device's clock (``LocalClock``).
///
/// Remembered in the store, per device, until a later file of that device is on time.
public struct ClockAhead: Codable, Equatable, Sendable {
    public var peer: String
    public var device: String?
    /// "log 3", "baseline 1".
    public var file: String
    /// When that device says it wrote the file.
    public var writtenAt: Date
    /// This device's clock when the file arrived.
    public var seenAt: Date

    /// How far ahead, in seconds.
    public var ahead: TimeInterval { writtenAt.timeIntervalSince(seenAt) }

    /// `device "phone" (peer …): its clock was about 10 years ahead of this device's (log 3 said
    /// 2036-11-20T10:35:13Z when this device read 2026-11-23T10:35:13Z)`.
    public var summary: String {
        let who = device.map { "device \($0.debugDescription) (peer \(peer))" } ?? "peer \(peer)"
        return "\(who): its clock was \(Self.about(ahead)) ahead of this device's (\(file) said "
            + "\(writtenAt.formatted(.iso8601)) when this device read \(seenAt.formatted(.iso8601)))"
    }

    /// "about 10 years", "about 3 days", "about 26 hours" (``DurationText``).
    public static func about(_ seconds: TimeInterval) -> String { DurationText.about(seconds) }
}

/// Where ``ClockAhead`` notes are kept: the store's metadata, one key per peer.
enum ClocksAhead {
    private static let prefix = "clockAhead."

    /// Looks at when a file of `peer` says it was written, seen at `now`: flags the device when
    /// that is too far ahead, and forgets an earlier flag when it is on time again.
    static func note(writtenAt: Date, peer: String, device: String?, file: String, now: Date, _ db: Database) throws {
        // A baseline's date is not checked against the date rule: one beyond it says nothing.
        guard ValueRule.dateRange.contains(writtenAt.timeIntervalSince1970) else { return }
        let key = prefix + peer
        if writtenAt.timeIntervalSince(now) > LocalClock.trustedAhead {
            let note = ClockAhead(peer: peer, device: device, file: file, writtenAt: writtenAt, seenAt: now)
            try db.executeCached(
                "INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES (?, ?)",
                [key, String(decoding: try encoder.encode(note), as: UTF8.self)])
        } else if try String.fetchCached(db, "SELECT value FROM \(EngineTables.metadata) WHERE key = ?", [key]) != nil {
            try db.executeCached("DELETE FROM \(EngineTables.metadata) WHERE key = ?", [key])
        }
    }

    /// Every device flagged, furthest ahead first.
    static func all(_ db: Database) throws -> [ClockAhead] {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try String.fetchAll(
            db, sql: "SELECT value FROM \(EngineTables.metadata) WHERE key LIKE ? ORDER BY key",
            arguments: [prefix + "%"]
        )
        .compactMap { try? decoder.decode(ClockAhead.self, from: Data($0.utf8)) }
        .sorted { $0.ahead > $1.ahead }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

extension CloudSync {
    /// The devices whose clocks were found too far ahead of this one's (``ClockAhead``).
    public func clocksAhead() throws -> [ClockAhead] {
        try store.read { db in try ClocksAhead.all(db) }
    }
}
