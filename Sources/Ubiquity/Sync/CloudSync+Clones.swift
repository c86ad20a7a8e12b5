import Foundation

/// A log of this device's own identity written by another copy of its data folder.
public struct CloneEvidence: Equatable, Sendable {
    /// The log's number, and the device name the other copy runs as.
    public let seq: Int64
    public let device: String
}

/// Two copies of one device in use at once (its data folder copied to another machine or
/// path, and both go on): they would write logs under one identity, each numbering after the
/// other's, and their clock readings could tie. Logs name the copy that wrote them
/// (``LogFile/Header/instance``); a log of this identity from another copy is applied like any
/// peer's, and this copy stops exporting under the identity until it has one of its own.
///
/// A copy restored from a backup in the same place is the same copy: what it published after
/// the backup is its own past (see ``exportPending()``), not a clone.
extension CloudSync {
    /// The first log of this identity that another copy wrote, seen by an import.
    public var cloneEvidence: CloneEvidence? { stateLockedClone }

    func noticeClone(in batch: [LogFile]) {
        guard let instance,
            let foreign = batch.first(where: { $0.header.instance != nil && $0.header.instance != instance })
        else { return }
        setCloneIfFirst(CloneEvidence(seq: foreign.header.seq, device: foreign.header.device))
        logger.warning(
            "log \(foreign.header.seq) of this device's identity was written by another copy of its data folder (device \(foreign.header.device)): this copy takes an identity of its own"
        )
    }
}
