import Foundation
import GRDB
import TextAndFiles

/// What this peer refused, releasing a held peer, and telling a peer its log was refused.
///
/// A peer that refuses another's log for what it holds (not for a copy still in progress)
/// writes a notice, `<epoch>/refusals/<its peer>/<writer>-<seq>.gdrefusal`. The writer, seeing
/// one about its own log, publishes a baseline of its store: the baseline covers the refused
/// log, so every peer holding it goes on from there, and nothing the writer holds is lost.
///
/// A notice a peer writes about its own log (`<peer>/<peer>-<seq>.gdrefusal`) says the opposite:
/// the writer lost that log (its file is damaged and its store was restored from before it).
/// Every peer that applied the log publishes a baseline, which brings its saves back to the
/// writer.
extension CloudSync {
    public var refusalsFolder: URL { layout.epochFolder.appendingPathComponent("refusals", isDirectory: true) }

    /// The files refused that still matter: logs that hold their peer now, baselines not
    /// merged, markers that do not check out. Forgets refusals that no longer apply (the file
    /// is gone, or a baseline or a release moved past the log).
    public func refusedFiles() throws -> [RefusedFile] {
        let remembered = try store.read { db in try RefusedFiles.all(db) }
        var current: [RefusedFile] = []
        var stale: [String] = []
        for file in remembered {
            let url = layout.cloud.appendingPathComponent(file.path)
            let stillThere = FileStamp.exists(url)
            switch file.kind {
            case .log:
                if stillThere, layout.relativePath(layout.logURL(peer: file.peer, seq: file.seq)) == file.path,
                    try watermark(of: file.peer) < file.seq
                {
                    current.append(file)
                } else {
                    stale.append(file.path)
                }
            case .baseline:
                if stillThere, try store.metadata("baselineSeen.\(file.peer).\(file.seq)") == nil {
                    current.append(file)
                } else {
                    stale.append(file.path)
                }
            case .marker, .blob, .folder:
                stale.append(file.path)  // reported live, below
            }
        }
        if !stale.isEmpty {
            try store.write { db in for path in stale { try RefusedFiles.forget(path, db) } }
        }
        return current + refusedMarkers() + unlistableFolders(try survey())
    }

    /// The folders of this store's place in the cloud folder that exist but cannot be listed
    /// (permissions, a file where a folder belongs, a broken mount): read live. What they hold
    /// is invisible, so they are reported rather than taken for empty. A peer folder an earlier
    /// import listed, unchanged since (not even its permissions), is not opened again.
    func unlistableFolders(_ survey: FolderSurvey) -> [RefusedFile] {
        var folders = [layout.logsFolder, layout.baselinesFolder, layout.epochsFolder, blobsFolder]
        for parent in [survey.logs, survey.baselines] {
            folders += parent.changed.filter(HLC.isPeerName)
                .map { URL(fileURLWithPath: parent.path($0), isDirectory: true) }
        }
        return folders.compactMap { folder in
            guard FileStamp.exists(folder) else { return nil }  // not made yet: nothing in it
            guard let handle = opendir(folder.path) else {
                let reason = String(cString: strerror(errno))
                return RefusedFile(
                    path: layout.relativePath(folder), kind: .folder, peer: folder.lastPathComponent, seq: 0,
                    device: nil, reason: "cannot be listed (\(reason)): what it holds is not seen",
                    size: -1, modified: 0, refusedAt: Date())
            }
            closedir(handle)
            return nil
        }
    }

    /// The epoch markers that do not check out, as refusals (read live: they are tiny).
    func refusedMarkers() -> [RefusedFile] {
        layout.epochMarkers().refused.map { name, reason in
            let url = layout.epochsFolder.appendingPathComponent(name)
            return RefusedFile(
                path: layout.relativePath(url), kind: .marker, peer: "",
                seq: Int64(CloudLayout.epoch(ofMarkerNamed: name) ?? 0), device: nil, reason: reason,
                size: -1, modified: 0, refusedAt: Date())
        }
    }

    // MARK: - Releasing a held peer

    /// Skips a refused log that holds its peer: the peer's later logs are applied from the next
    /// import on, and the changes in the skipped log are lost on this device. The file stays
    /// in the cloud folder (files there are never changed).
    ///
    /// - Returns: the refusal released.
    /// - Throws: ``ReleaseError`` when that log does not hold its peer.
    @discardableResult
    public func release(peer other: String, seq: Int64) throws -> RefusedFile {
        let path = layout.relativePath(layout.logURL(peer: other, seq: seq))
        return try store.write { db in
            guard let refusal = try RefusedFiles.all(db).first(where: { $0.path == path }),
                try Watermarks.get(other, folder: layout.watermarkFolder, db) == seq - 1
            else {
                throw ReleaseError.notHeld(peer: other, seq: seq)
            }
            try Watermarks.set(other, seq, folder: layout.watermarkFolder, db)
            try RefusedFiles.forget(path, db)
            return refusal
        }
    }

    /// What a held log would have changed, as far as it can be read: for the confirmation.
    public func contentSummary(of refusal: RefusedFile) -> String {
        // Read within the same bounds as an import: a refused file may be huge or no file at all.
        guard refusal.kind == .log,
            let record = try? LogFile.read(
                at: layout.logURL(peer: refusal.peer, seq: refusal.seq), expecting: layout,
                peer: refusal.peer, seq: refusal.seq
            ).record
        else { return "its content cannot be read" }
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        return
            "it holds \(count(record.inserted.count, "new object")), \(count(record.updated.count, "change")) and \(count(record.deleted.count, "delete"))"
    }

    // MARK: - Notices to the writer

    /// Tells the writer of a log that this peer refused it for what it holds. Written once.
    func noticeRefusal(_ refusal: RefusedFile) {
        guard refusal.kind == .log, HLC.isPeerName(refusal.peer) else { return }
        let url = refusalsFolder.appendingPathComponent(peer, isDirectory: true)
            .appendingPathComponent("\(refusal.peer)-\(refusal.seq).gdrefusal")
        guard !FileStamp.exists(url) else { return }
        let text =
            "{\"device\":\(JSONText.quoted(device)),\"log\":\(refusal.seq),\"peer\":\(JSONText.quoted(refusal.peer)),\"reason\":\(JSONText.quoted(refusal.reason))}\n"
        do {
            try layout.makeFolder(url.deletingLastPathComponent())
            _ = try AtomicFile.create(Data(text.utf8), at: url)  // one notice, never replaced
        } catch {
            logger.warning("cannot write the refusal notice \(url.lastPathComponent): \(ErrorText.reason(error))")
        }
    }

    /// Tells the devices that applied this peer's log `seq` that this peer lost it. Written once.
    func noticeOwnLoss(_ seq: Int64, reason: String) {
        let url = refusalsFolder.appendingPathComponent(peer, isDirectory: true).appendingPathComponent(
            "\(peer)-\(seq).gdrefusal")
        guard !FileStamp.exists(url) else { return }
        let text =
            "{\"device\":\(JSONText.quoted(device)),\"log\":\(seq),\"peer\":\(JSONText.quoted(peer)),\"reason\":\(JSONText.quoted("lost by its writer: " + reason))}\n"
        do {
            try layout.makeFolder(url.deletingLastPathComponent())
            _ = try AtomicFile.create(Data(text.utf8), at: url)
        } catch {
            logger.warning("cannot write the notice \(url.lastPathComponent): \(ErrorText.reason(error))")
        }
    }

    /// From the notices' names alone: the newest of this peer's logs that another peer refused
    /// for what it holds, and the logs other peers say they lost. A peer's folder of notices
    /// unchanged since an earlier import read it is not listed again, unless a loss in it waits
    /// for a log this peer has not applied yet.
    func noticesElsewhere(folders: inout PeerFolders) throws -> (
        newestOwnRefused: Int64?, lost: [(peer: String, seq: Int64)]
    ) {
        let prefix = peer + "-"
        let suffix = ".gdrefusal"
        var newest = folders.newestUnchanged
        var lost: [(peer: String, seq: Int64)] = []
        // Read once, and only when a loss is named: a folder may hold many notices.
        var applied: [String: Int64]?
        func watermark(_ other: String) throws -> Int64 {
            if applied == nil {
                applied = try store.read { db in try Watermarks.all(folder: layout.watermarkFolder, db) }
            }
            return applied?[other] ?? 0
        }
        for other in folders.changed where other != peer {
            guard let names = folderEntries(folders.path(other)) else {
                folders.forget(other)
                continue
            }
            var inFolder: Int64 = 0
            var waiting = false
            for name in names where name.hasSuffix(suffix) {
                if name.hasPrefix(prefix), let seq = Int64(name.dropFirst(prefix.count).dropLast(suffix.count)), seq > 0
                {
                    inFolder = max(inFolder, seq)
                } else if name.hasPrefix(other + "-"),
                    let seq = Int64(name.dropFirst(other.count + 1).dropLast(suffix.count)), seq > 0
                {
                    if try watermark(other) >= seq { lost.append((other, seq)) } else { waiting = true }
                }
            }
            if waiting { folders.forget(other) } else { folders.remember(other, newest: inFolder) }
            newest = max(newest, inFolder)
        }
        return (newest > 0 ? newest : nil, lost)
    }

    /// Publishes a baseline when another peer refused one of this peer's logs (an older build
    /// wrote it, say) and no baseline since covers it.
    func republishIfRefusedElsewhere(folders: inout PeerFolders) throws {
        let notices = try noticesElsewhere(folders: &folders)
        try answerLosses(notices.lost)
        guard let refused = notices.newestOwnRefused else { return }
        let key = "republishedAfterRefusalOf"
        guard refused > (try store.metadata(key).flatMap { Int64($0) } ?? 0) else { return }
        guard try watermark(of: peer) >= refused, try writeBaseline() != nil else { return }
        try store.setMetadata(key, String(refused))
        logger.notice("another peer refused this device's log \(refused): published a baseline that covers it")
    }

    /// Publishes a baseline for the peers that lost a log this peer applied: it holds their
    /// saves, which their merge takes back. A peer's losses are answered in order: one already
    /// answered, or one before it, asks for nothing more (notices are files anyone with access
    /// to the folder may write; a flood of them costs at most one baseline a round, and only for
    /// logs this peer applied).
    private func answerLosses(_ losses: [(peer: String, seq: Int64)]) throws {
        guard !losses.isEmpty else { return }
        let newestLoss = Dictionary(losses, uniquingKeysWith: max)
        let answered = try store.read { db in
            try newestLoss.keys.map {
                (
                    $0,
                    try String.fetchOne(
                        db, sql: "SELECT value FROM \(EngineTables.metadata) WHERE key = ?",
                        arguments: ["answeredLoss.\($0)"]
                    ).flatMap { Int64($0) } ?? 0
                )
            }
        }
        let unanswered = answered.filter { newestLoss[$0.0]! > $0.1 }.map { ($0.0, newestLoss[$0.0]!) }
        guard !unanswered.isEmpty, let url = try writeBaseline() else { return }
        try store.write { db in
            for (other, seq) in unanswered {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO \(EngineTables.metadata) (key, value) VALUES (?, ?)",
                    arguments: ["answeredLoss.\(other)", String(seq)])
            }
        }
        logger.notice(
            "another device lost logs this device applied (\(unanswered.map { "log \($0.1) of peer \($0.0)" }.joined(separator: ", "))): published baseline \(url.lastPathComponent), which holds them"
        )
    }

    // MARK: - Leftovers of a crash

    /// Removes what a crash left in this peer's own folders: temporary files of a write that
    /// never finished (their process is gone). Other peers' folders are never touched.
    func removeLeftovers() {
        let manager = FileManager.default
        let folders = [
            layout.peerFolder(peer), layout.baselinesFolder.appendingPathComponent(peer, isDirectory: true),
            refusalsFolder.appendingPathComponent(peer, isDirectory: true),
        ]
        for folder in folders {
            for name in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
            where AtomicFile.isAbandonedTemporary(name) {
                try? manager.removeItem(at: folder.appendingPathComponent(name))
                logger.info("removed the leftover \(name)")
            }
        }
    }
}

/// Why a peer cannot be released.
public enum ReleaseError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case notHeld(peer: String, seq: Int64)

    public var description: String {
        switch self {
        case .notHeld(let peer, let seq): "log \(seq) of peer \(peer) does not hold that peer back: nothing to release"
        }
    }

    public var errorDescription: String? { description }
}
