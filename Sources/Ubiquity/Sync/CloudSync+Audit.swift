import Foundation
import GRDB
import TextAndFiles

/// What an audit of this device's own published files found and did.
public struct OwnHistoryAudit: Equatable, Sendable {
    /// The own files peers may still need that are missing, cut short or damaged, with why:
    /// "log 3: it is missing".
    public var problems: [String] = []
    /// The baseline written to cover them (a file name), when one was.
    public var republished: String?

    public init() {}

    /// What to tell the user, once; `nil` when all was well.
    public var note: String? {
        guard !problems.isEmpty else { return nil }
        let what = problems.joined(separator: "; ")
        guard let republished else {
            return
                "this device's published files in the cloud folder are not whole (\(what)); they are covered by a baseline at the next sync"
        }
        return
            "this device's published files in the cloud folder were not whole (\(what)): published this device's data as baseline \(republished), which covers them, so no device waits for them"
    }
}

/// Each device audits what it published: a log or baseline of its own that went missing or was
/// cut short (a file-sync tool that lost it, a disk that ignored fsync, a clean-up by hand) makes
/// peers wait for ever or miss it. A published name is never written again: what such a file
/// held is republished as a new baseline, which covers it.
///
/// - At every sync round, cheaply: when this device's logs folder changed since the last audit
///   (its stamp, one `stat`), it is listed — every own log peers may still need must be there —
///   and the logs published since get their size checked against their header (the first
///   4 KiB). The newest own baseline must be there with the size it was written with.
/// - In full on a slower cadence (``fullAuditInterval``) and at `cloud verify`: every own log
///   peers may still need and the newest own baseline are read whole, checksums included.
///
/// The logs a baseline of this device covers are not needed (`cloud baseline` removes them on
/// purpose): the audit knows the newest one's coverage from the store, where ``writeBaseline()``
/// keeps it.
extension CloudSync {
    /// How often an audit reads every file it checks whole.
    public static let fullAuditInterval: TimeInterval = 24 * 3600

    /// Store metadata of the audit and of this device's newest baseline.
    enum AuditKey {
        /// "<number> <own logs covered> <size>" of the newest baseline this device wrote.
        static let ownBaseline = "ownBaseline"
        /// The stamp of this device's logs folder when the last audit looked.
        static let folderStamp = "audit.folderStamp"
        /// The own logs up to here had their size checked.
        static let checkedUpTo = "audit.checkedUpTo"
        /// When the last full audit ran (seconds since 1970).
        static let lastFull = "audit.lastFull"
    }

    /// The newest baseline this device wrote, as the store remembers it.
    struct OwnBaseline {
        var number: Int64
        var covers: Int64
        var size: Int64

        init?(_ text: String?) {
            let parts = text?.split(separator: " ").compactMap { Int64($0) } ?? []
            guard parts.count == 3 else { return nil }
            (number, covers, size) = (parts[0], parts[1], parts[2])
        }

        init(number: Int64, covers: Int64, size: Int64) {
            (self.number, self.covers, self.size) = (number, covers, size)
        }

        var text: String { "\(number) \(covers) \(size)" }
    }

    /// Audits this device's own published files, in full when asked or when due, and
    /// republishes what a missing or damaged one held.
    @discardableResult
    public func auditOwnHistory(full asked: Bool = false) throws -> OwnHistoryAudit {
        var audit = OwnHistoryAudit()
        let seqKey = exportedSeqKey(modelVersion: layout.modelVersion)
        let facts = try store.read { db in
            try Row.fetchAll(
                db, sql: "SELECT key, value FROM \(EngineTables.metadata) WHERE key IN (?, ?, ?, ?, ?)",
                arguments: [
                    seqKey, AuditKey.ownBaseline, AuditKey.folderStamp, AuditKey.checkedUpTo, AuditKey.lastFull,
                ]
            )
            .reduce(into: [String: String]()) { $0[$1[0]] = $1[1] }
        }
        let exported = facts[seqKey].flatMap { Int64($0) } ?? 0
        guard exported > 0, layout.isReachable else { return audit }
        let full =
            asked
            || Date().timeIntervalSince1970 - (facts[AuditKey.lastFull].flatMap(Double.init) ?? 0)
                >= Self.fullAuditInterval
        let folder = layout.peerFolder(peer)
        let baseline = OwnBaseline(facts[AuditKey.ownBaseline])
        let baselineProblem = baseline.flatMap { check($0, full: full) }
        if !full, Self.stampText(folder) == facts[AuditKey.folderStamp], baselineProblem == nil { return audit }
        // A peer started over: this epoch's files are gone on purpose, and nothing is written
        // into it again.
        guard !layout.isSuperseded else { return audit }

        // The own logs peers may still need: after what a whole baseline of this device covers.
        let covered = baselineProblem == nil ? baseline?.covers ?? 0 : 0
        let checkedUpTo = facts[AuditKey.checkedUpTo].flatMap { Int64($0) } ?? 0
        let present = Set(numberedEntries(folder.path, extension: CloudLayout.logExtension) ?? [])
        if let baselineProblem, let baseline {
            audit.problems.append("baseline \(baseline.number): \(baselineProblem)")
        }
        if covered < exported {
            for seq in (covered + 1)...exported {
                guard present.contains(seq) else {
                    audit.problems.append("log \(seq): it is missing")
                    continue
                }
                guard full || seq > checkedUpTo else { continue }
                if let problem = checkLog(seq, full: full) { audit.problems.append("log \(seq): \(problem)") }
            }
        }
        if !audit.problems.isEmpty {
            guard let url = try writeBaseline() else { return audit }  // saves arrived meanwhile: the next round
            audit.republished = url.lastPathComponent
            logger.notice("\(audit.note ?? "")")
        }
        // The stamp after the baseline (it may have exported pending saves into the folder).
        let after = Self.stampText(folder)
        try store.write { db in
            let set = "INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES (?, ?)"
            try db.execute(sql: set, arguments: [AuditKey.folderStamp, after])
            try db.execute(sql: set, arguments: [AuditKey.checkedUpTo, String(exported)])
            if full { try db.execute(sql: set, arguments: [AuditKey.lastFull, String(Date().timeIntervalSince1970)]) }
        }
        return audit
    }

    /// A folder's stamp as the audit remembers it: one `stat`.
    private static func stampText(_ folder: URL) -> String {
        FolderStamp.of(folder.path).map { "\($0.device):\($0.inode):\($0.modified):\($0.changed)" } ?? "none"
    }

    /// What is wrong with this device's log `seq`, `nil` when nothing: its size against its
    /// header, or (in full) the whole file with its checksum.
    private func checkLog(_ seq: Int64, full: Bool) -> String? {
        let url = layout.logURL(peer: peer, seq: seq)
        do {
            if full {
                _ = try LogFile.read(at: url, expecting: layout, peer: peer, seq: seq)
            } else {
                try EnvelopeFile.checkSize(at: url, magics: [LogFile.magic], expecting: layout, peer: peer, seq: seq)
            }
            return nil
        } catch let failure as LogFileFailure {
            return failure.error.description
        } catch let error as LogFileError {
            return error.description
        } catch {
            return ErrorText.reason(error)
        }
    }

    /// What is wrong with this device's newest baseline, `nil` when nothing: there, with the
    /// size it was written with, and (in full) whole.
    private func check(_ baseline: OwnBaseline, full: Bool) -> String? {
        let url = layout.baselineURL(peer: peer, number: baseline.number)
        switch FileStamp.of(url) {
        case .failure: return FileStamp.exists(url) ? "it is not a file" : "it is missing"
        case .success(let stamp) where stamp.size != baseline.size:
            return "it is \(stamp.size) bytes, it was written with \(baseline.size)"
        case .success: break
        }
        guard full else { return nil }
        do {
            _ = try Baseline.read(at: url, expecting: layout, peer: peer, number: baseline.number)
            return nil
        } catch let failure as LogFileFailure {
            return failure.error.description
        } catch {
            return ErrorText.reason(error)
        }
    }
}

/// A note on this device's own published history, for the user and the device's journal:
/// `historyRecovered`, `historyRepublished`, `historyLost`.
public struct HistoryNote: Equatable, Sendable {
    public let event: String
    public let text: String
}

extension CloudSync {
    /// Before an export: when this device published further than its store remembers (the store
    /// was restored from a backup; ``PublishedMark``), its own logs are taken back first, and
    /// those that are gone or unreadable are marked lost, so that no published number is used
    /// again.
    func numberPastLostOwnLogs() throws {
        let mark =
            PublishedMark.read(storePath: store.path)[PublishedMark.key(peer: peer, folder: layout.watermarkFolder)]
            ?? 0
        var own = try watermark(of: peer)
        guard mark > own else { return }
        try importMeanwhile()
        own = try watermark(of: peer)
        while own < mark {
            try markOwnLogLost(own + 1)
            try importMeanwhile()
            let after = try watermark(of: peer)
            guard after > own else { break }  // readable, yet not applied: the export's own checks decide
            own = after
        }
    }

    /// This device's own log `seq` is in the cloud folder but cannot be read (cut short, damaged)
    /// or is missing before later ones, and the store does not hold its saves (it was restored
    /// from a backup older than the log): what it held is lost on this device. The device
    /// numbers on after it — a published name is never written again — says so, and asks the
    /// devices that applied it for a baseline (a notice about its own log in its refusals
    /// folder), which brings those saves back.
    func markOwnLogLost(_ seq: Int64) throws {
        let url = layout.logURL(peer: peer, seq: seq)
        let why: String
        switch FileStamp.of(url) {
        case .failure: why = FileStamp.exists(url) ? "it is not a file" : "it is missing"
        case .success:
            do {
                _ = try LogFile.read(at: url, expecting: layout, peer: peer, seq: seq)
                return  // readable after all (a copy completed meanwhile): the next attempt applies it
            } catch let failure as LogFileFailure {
                why = failure.error.description
            } catch {
                why = (error as? LogFileError)?.description ?? ErrorText.reason(error)
            }
        }
        let seqKey = exportedSeqKey(modelVersion: layout.modelVersion)
        try store.write { db in
            if try Watermarks.get(peer, folder: layout.watermarkFolder, db) < seq {
                try Watermarks.set(peer, seq, folder: layout.watermarkFolder, db)
            }
            let exported =
                try String.fetchOne(
                    db, sql: "SELECT value FROM \(EngineTables.metadata) WHERE key = ?", arguments: [seqKey]
                )
                .flatMap { Int64($0) } ?? 0
            if exported < seq {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES (?, ?)",
                    arguments: [seqKey, String(seq)])
            }
            try RefusedFiles.forget(layout.relativePath(url), db)
        }
        noticeOwnLoss(seq, reason: why)
        let note =
            "this device's own log \(seq) in the cloud folder cannot be read (\(why)) and its store does not hold its saves (restored from an older backup?): they are lost on this device unless another device applied them — such a device publishes a baseline that brings them back; new saves are numbered after it"
        logger.warning("\(note)")
        tellOnce(HistoryNote(event: "historyLost", text: note))
    }
}
