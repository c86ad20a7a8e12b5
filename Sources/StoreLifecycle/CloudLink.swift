import Foundation
import Ubiquity

/// A cloud store's link to the cloud folder, as a command or a screen drives it: export and
/// import, baselines, verification, refused files. Only a cloud store has one
/// (``DeviceStore/cloudLink``).
public struct CloudLink: Sendable {
    let sync: CloudSync

    /// Whether the cloud folder can be used now: it is there and can be written.
    public var isCloudReachable: Bool { sync.layout.isReachable }

    /// The cloud folder.
    public var cloudFolder: URL { sync.layout.cloud }

    /// Writes the saves that wait as logs; answers how many logs it wrote.
    @discardableResult
    public func exportPending() throws -> Int { try sync.exportPending() }

    /// How many saves wait to be exported.
    public func pendingExports() throws -> Int { try sync.pendingExports() }

    /// Applies what other devices wrote; answers how many of their logs it applied.
    @discardableResult
    public func importPending() throws -> Int { try sync.importPending().appliedLogs }

    /// The last time the cloud folder was read without trouble, by this process or any other.
    public func lastSync() throws -> Date? { try sync.lastSync() }

    /// How many files the last import refused: for a status line that must not read the cloud
    /// folder itself (``refusedFiles()`` lists them).
    public var refusedAtLastImport: Int { sync.refusedAtLastImport }

    /// The last log of `peer` this device applied.
    public func watermark(of peer: String) throws -> Int64 { try sync.watermark(of: peer) }

    // MARK: - Baselines and the digest

    /// Writes a baseline of this store; `nil` when the store changed while it was made.
    public func writeBaseline() throws -> URL? { try sync.writeBaseline() }

    /// Writes a baseline when enough logs came since the last one; the baseline written, if any.
    public func coalesceHistoryIfDue() throws -> URL? { try sync.coalesceHistoryIfDue() }

    /// Removes this device's logs that baselines at least `gracePeriod` seconds old cover;
    /// answers how many.
    public func pruneCoveredLogs(gracePeriod: TimeInterval) throws -> Int {
        try sync.pruneCoveredLogs(gracePeriod: gracePeriod)
    }

    /// Publishes this device's digest, when its data changed since the last one.
    public func publishDigestIfChanged() throws { try sync.publishDigestIfChanged() }

    /// Compares this device's digest with the other devices' that applied the same logs.
    public func verify() throws -> VerifyResult { VerifyResult(try sync.verify()) }

    /// Reads every file of this device's that peers may still need, whole, and republishes what
    /// a missing or damaged one held; what it found, for the user (`nil`: all is well). `cloud
    /// verify` runs it first.
    public func auditOwnHistory() throws -> String? {
        try sync.auditOwnHistory(full: true).note
    }

    // MARK: - Refused files

    /// The files of the cloud folder this device refuses.
    public func refusedFiles() throws -> [RefusedCloudFile] { try sync.refusedFiles().map(RefusedCloudFile.init) }

    /// The first refused log that holds its device back; `nil` when there is none.
    public func firstHeldBackLog() -> HeldBackLog? {
        (try? sync.refusedFiles())?.first(where: { $0.kind == .log }).map { HeldBackLog($0, sync) }
    }

    /// Log `seq` of `peer`, when this device refuses it.
    public func heldBackLog(peer: String, seq: Int64) throws -> HeldBackLog? {
        try sync.refusedFiles().first(where: { $0.kind == .log && $0.peer == peer && $0.seq == seq }).map {
            HeldBackLog($0, sync)
        }
    }

    /// Skips `log` for good on this device: its device's later logs are applied at the next import.
    public func release(_ log: HeldBackLog) throws {
        try sync.release(peer: log.peer, seq: log.seq)
    }
}

extension DeviceStore {
    /// The link to the cloud folder; `nil` on a local or fallback store.
    public var cloudLink: CloudLink? { sync.map(CloudLink.init) }
}
