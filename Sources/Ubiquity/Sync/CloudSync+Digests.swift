import Foundation
import GRDB
import TextAndFiles

/// Peers prove they agree: each publishes a digest of its data with the logs it applied, and a
/// peer that applied exactly the same logs compares top hashes.
///
/// Naming the objects that differ takes two steps, since neither peer can read the other's
/// store: the peer that finds differing buckets writes a detail file with its objects' hashes
/// in those buckets (at its applied vector). That file is also a request: the other peer, on
/// its next publish (any import), writes its own detail for the same buckets when it is at the
/// same applied vector. Whichever peer then verifies reads the other's detail and names exactly
/// the objects that differ or that only one side holds; until it is there, it lists its own
/// objects of the differing buckets.
extension CloudSync {
    /// What a publish step remembers (in `ubiquity_metadata`), to write only when something changed.
    struct PublishedDigest: Codable, Equatable {
        var number: Int64
        var applied: [String: Int64]
        var top: String
        /// ``ObjectStore/changeToken()`` when last computed: unchanged with the same vector, no
        /// need to compute again.
        var token: Int64
    }

    /// The last detail this peer wrote.
    struct WrittenDetail: Codable, Equatable {
        var applied: [String: Int64]
        var top: String
        var buckets: [String]
    }

    private var publishedKey: String { "digestPublished.\(layout.watermarkFolder)" }
    private var detailKey: String { "digestDetail.\(layout.watermarkFolder)" }
    private var verifyKey: String { "digestVerify.\(layout.watermarkFolder)" }
    private func requestSeenKey(_ other: String) -> String { "digestRequestSeen.\(layout.watermarkFolder).\(other)" }

    // MARK: - Publishing

    /// Publishes this peer's digest when its applied logs or its data changed since the last
    /// one, and answers other peers' detail requests. Nothing while saves wait to be exported or
    /// blobs to arrive (the data is then not what the applied logs say), or offline.
    public func publishDigestIfChanged() throws {
        _ = try publishDigest(force: false)
    }

    /// - Parameter force: compute even when nothing seems to have changed (data changed
    ///   outside saves and imports is found that way).
    /// - Returns: this peer's current digest, or why it has none now.
    func publishDigest(force: Bool) throws -> (digest: Digest?, notComparable: String?) {
        guard layout.isReachable, !layout.isSuperseded else {
            return (nil, "the cloud folder cannot be reached, or a peer started over")
        }
        let published = try storedJSON(PublishedDigest.self, publishedKey)
        enum Snapshot {
            case pending(String)
            case unchanged
            case computed(Digest, Int64)
        }
        let snapshot = try store.read { db -> Snapshot in
            if try Int.fetchOne(db, sql: "SELECT count(*) FROM \(EngineTables.outbox)") ?? 0 > 0 {
                return .pending("this device has saves not exported yet")
            }
            if try Int.fetchOne(db, sql: "SELECT count(*) FROM \(EngineTables.pendingBlob)") ?? 0 > 0 {
                return .pending("this device waits for photos (blobs) to arrive")
            }
            let applied = try Watermarks.all(folder: layout.watermarkFolder, db).filter { $0.value > 0 }
            let token = try Outbox.changeToken(db)
            if !force, let published, published.applied == applied, published.token == token { return .unchanged }
            guard force else { return .computed(try store.digest(applied: applied, db), token) }
            // Asked for (`cloud verify`): computed whole, and checked against the digest computed
            // from the changes since the last one.
            let (digest, agreed) = try store.checkedDigest(applied: applied, db)
            if !agreed { logger.error("the digest computed from the changes differs from the whole one's") }
            return .computed(digest, token)
        }
        var current: Digest?
        switch snapshot {
        case .pending(let reason):
            return (nil, reason)
        case .unchanged:
            break
        case .computed(let digest, let token):
            current = digest
            var state = published ?? PublishedDigest(number: 0, applied: [:], top: "", token: token)
            state.token = token
            if published == nil || published?.applied != digest.applied || published?.top != digest.top {
                state = PublishedDigest(
                    number: try write(digest), applied: digest.applied, top: digest.top, token: token)
                logger.info("published digest \(state.number) (\(digest.applied.values.reduce(0, +)) logs)")
            }
            try storeJSON(state, publishedKey)
        }
        try answerDetailRequests(current: current)
        return (current, nil)
    }

    /// Writes the digest as this peer's next file and removes its own older ones.
    private func write(_ digest: Digest) throws -> Int64 {
        let payload = DigestFiles.Published(
            created: Date().timeIntervalSince1970, applied: digest.applied,
            top: digest.top, buckets: digest.buckets)
        return try writeOwn(payload, magic: DigestFiles.digestMagic, extension: DigestFiles.digestExtension)
    }

    private func writeOwn<Payload: Encodable>(_ payload: Payload, magic: String, extension ext: String) throws -> Int64
    {
        let number = (layout.digestNumbers(of: peer, extension: ext).first ?? 0) + 1
        let data = try DigestFiles.encode(
            payload, magic: magic, layout: layout, peer: peer, device: device, number: number)
        let url = layout.digestURL(peer: peer, number: number, extension: ext)
        try layout.makeFolder(url.deletingLastPathComponent())
        try AtomicFile.write(data, to: url)
        // Only this peer's own folder: other peers' files are never touched.
        for old in layout.digestNumbers(of: peer, extension: ext).dropFirst(DigestFiles.kept) {
            try? FileManager.default.removeItem(at: layout.digestURL(peer: peer, number: old, extension: ext))
        }
        return number
    }

    // MARK: - Details

    /// Writes this peer's detail of `buckets`, unless its last one already holds them for the
    /// same data. Buckets beyond what fits in a file are left out (a later request gets them).
    func writeDetailIfNeeded(_ digest: Digest, buckets: [String]) throws {
        if let last = try storedJSON(WrittenDetail.self, detailKey), last.applied == digest.applied,
            last.top == digest.top,
            Set(buckets).isSubset(of: last.buckets)
        {
            return
        }
        var chosen: [String: [Digest.ObjectHash]] = [:]
        var size = 0
        for bucket in buckets.sorted() {
            let objects = digest.objects(in: bucket)
            size += objects.reduce(0) { $0 + 120 + $1.entity.utf8.count }
            if size > DigestFiles.maxSize * 3 / 4, !chosen.isEmpty { break }
            chosen[bucket] = objects
        }
        let detail = DigestFiles.Detail(
            created: Date().timeIntervalSince1970, applied: digest.applied, top: digest.top, buckets: chosen)
        let number = try writeOwn(detail, magic: DigestFiles.detailMagic, extension: DigestFiles.detailExtension)
        try storeJSON(WrittenDetail(applied: digest.applied, top: digest.top, buckets: chosen.keys.sorted()), detailKey)
        logger.info("wrote digest detail \(number) for bucket(s) \(chosen.keys.sorted().joined(separator: ", "))")
    }

    /// Looks once at each new detail file of the other peers: one written at this peer's
    /// applied vector asks for this peer's detail of its buckets.
    private func answerDetailRequests(current: Digest?) throws {
        var digest = current
        for other in layout.digestPeers() where other != peer {
            guard let newest = layout.digestNumbers(of: other, extension: DigestFiles.detailExtension).first else {
                continue
            }
            let seenKey = requestSeenKey(other)
            guard newest > (try store.metadata(seenKey).flatMap { Int64($0) } ?? 0) else { continue }
            try store.setMetadata(seenKey, String(newest))
            let request: DigestFiles.Detail
            do {
                request = try DigestFiles.read(
                    layout.digestURL(peer: other, number: newest, extension: DigestFiles.detailExtension),
                    as: DigestFiles.Detail.self, magic: DigestFiles.detailMagic, layout: layout,
                    peer: other, number: newest
                ).payload
                try DigestFiles.check(request, schema: store.schema)
            } catch {
                logger.warning("skipped digest detail \(newest) from peer \(other): \(error)")
                continue
            }
            if digest == nil {
                digest = try store.read { db -> Digest? in
                    guard try Int.fetchOne(db, sql: "SELECT count(*) FROM \(EngineTables.outbox)") == 0,
                        try Int.fetchOne(db, sql: "SELECT count(*) FROM \(EngineTables.pendingBlob)") == 0
                    else { return nil }
                    let applied = try Watermarks.all(folder: layout.watermarkFolder, db).filter { $0.value > 0 }
                    return try store.digest(applied: applied, db)
                }
            }
            guard let current = digest, current.applied == request.applied, current.top != request.top else { continue }
            // Buckets that this process did not compute again have no contents in it yet.
            guard
                let filled = try store.read({ db in
                    try current.filledIn(Array(request.buckets.keys), schema: store.schema, db)
                })
            else { continue }
            digest = filled
            try writeDetailIfNeeded(filled, buckets: Array(request.buckets.keys))
        }
    }

    // MARK: - Verifying

    /// Publishes this peer's digest and compares it with every other peer's newest valid one
    /// at the same applied vector. Bad files are reported, never thrown.
    public func verify() throws -> VerifyReport {
        var report = VerifyReport()
        let (mine, reason) = try publishDigest(force: true)
        guard let mine else {
            if !layout.isReachable { throw CloudError.unreachable(layout.cloud.path) }
            report.notComparableHere = reason
            return report
        }
        report.applied = mine.applied
        for other in Set(layout.digestPeers()).union(layout.peers()).sorted() where other != peer {
            guard let (device, theirs) = newestDigest(of: other, into: &report) else {
                report.notComparable.append(.init(peer: other, device: nil, reason: "it has published no digest yet"))
                continue
            }
            guard theirs.applied == mine.applied else {
                let blocked = blockedLogs(mine.applied, theirs.applied, otherDevice: device)
                if blocked.isEmpty {
                    report.notComparable.append(
                        .init(peer: other, device: device, reason: Self.describe(mine.applied, theirs.applied)))
                } else {
                    report.stuck.append(
                        .init(
                            peer: other, device: device, reason: blocked.map(\.line).joined(separator: "; "),
                            skippable: blocked.compactMap(\.skippable)))
                }
                continue
            }
            guard theirs.top != mine.top else {
                report.agreeing.append(.init(peer: other, device: device))
                continue
            }
            let buckets = Digest.differingBuckets(mine.buckets, theirs.buckets)
            try writeDetailIfNeeded(mine, buckets: buckets)
            let detail = newestDetail(of: other, matching: theirs, into: &report)
            report.diverging.append(
                .init(
                    peer: other, device: device, buckets: buckets,
                    objects: try differences(mine, detail, buckets: buckets)))
        }
        let summary = VerifySummary(
            at: Date(), agreed: report.agreeing.map(\.device),
            diverged: report.diverging.map(\.device) + report.stuck.map { $0.device ?? $0.peer })
        try storeJSON(summary, verifyKey)
        for divergence in report.diverging {
            logger.warning(
                "digest differs from \(divergence.device) (peer \(divergence.peer)) in bucket(s) \(divergence.buckets.joined(separator: ", "))"
            )
        }
        return report
    }

    /// The outcome of the last ``verify()`` of this store, if any.
    public func lastVerify() throws -> VerifySummary? {
        try storedJSON(VerifySummary.self, verifyKey)
    }

    /// A peer's newest digest that reads and checks out (of the few it keeps).
    private func newestDigest(of other: String, into report: inout VerifyReport) -> (String, DigestFiles.Published)? {
        for number in layout.digestNumbers(of: other, extension: DigestFiles.digestExtension).prefix(DigestFiles.kept) {
            let url = layout.digestURL(peer: other, number: number, extension: DigestFiles.digestExtension)
            do {
                let (device, published) = try DigestFiles.read(
                    url, as: DigestFiles.Published.self, magic: DigestFiles.digestMagic,
                    layout: layout, peer: other, number: number)
                try DigestFiles.check(published)
                return (device, published)
            } catch {
                report.badFiles.append("digest \(number) from peer \(other): \(error)")
            }
        }
        return nil
    }

    /// A peer's newest detail of the very digest compared with, if it wrote one.
    private func newestDetail(
        of other: String, matching digest: DigestFiles.Published,
        into report: inout VerifyReport
    ) -> DigestFiles.Detail? {
        for number in layout.digestNumbers(of: other, extension: DigestFiles.detailExtension).prefix(DigestFiles.kept) {
            let url = layout.digestURL(peer: other, number: number, extension: DigestFiles.detailExtension)
            do {
                let detail = try DigestFiles.read(
                    url, as: DigestFiles.Detail.self, magic: DigestFiles.detailMagic,
                    layout: layout, peer: other, number: number
                ).payload
                try DigestFiles.check(detail, schema: store.schema)
                if detail.applied == digest.applied, detail.top == digest.top { return detail }
            } catch {
                report.badFiles.append("digest detail \(number) from peer \(other): \(error)")
            }
        }
        return nil
    }

    /// The objects of the differing buckets: exactly those that differ when the other peer's
    /// detail holds the bucket, else every object of the bucket on this side.
    private func differences(_ mine: Digest, _ theirs: DigestFiles.Detail?, buckets: [String]) throws -> [VerifyReport
        .Difference]
    {
        var found: [(Digest.ObjectHash, VerifyReport.Difference.Kind)] = []
        for bucket in buckets {
            let here = mine.objects(in: bucket)
            guard let there = theirs?.buckets[bucket] else {
                found += here.map { ($0, .inDifferingBucket) }
                continue
            }
            let hereByID = Dictionary(here.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let thereByID = Dictionary(there.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for id in Set(hereByID.keys).union(thereByID.keys).sorted() {
                switch (hereByID[id], thereByID[id]) {
                case (let object?, let other?) where object.hash != other.hash: found.append((object, .differs))
                case (let object?, nil): found.append((object, .onlyHere))
                case (nil, let other?): found.append((other, .onlyThere))
                default: break
                }
            }
        }
        return try store.read { db in
            try found.map { object, kind in
                VerifyReport.Difference(
                    entity: object.entity, id: object.id, label: try label(of: object, db), kind: kind)
            }
        }
    }

    /// An object's unique attribute on this peer ("Milk"), for people to recognise it.
    private func label(of object: Digest.ObjectHash, _ db: Database) throws -> String? {
        guard object.deleted != true, let entity = store.schema.entity(named: object.entity),
            let attribute = entity.uniqueAttribute
        else { return nil }
        return try String.fetchOne(
            db,
            sql:
                "SELECT \(attribute.quotedDatabaseIdentifier) FROM \(entity.table.quotedDatabaseIdentifier) WHERE id = ?",
            arguments: [object.id])
    }

    /// Why two applied vectors are not comparable, in words.
    /// The logs one of two devices waits for and can never get from the cloud folder as it is:
    /// the next log it needs of some peer is missing or damaged there, and no baseline covers it.
    /// "this device waits for log 3 of peer …, which is not in the cloud folder", with the log
    /// when the waiting side may skip it (another peer's).
    func blockedLogs(_ mine: [String: Int64], _ theirs: [String: Int64], otherDevice: String)
        -> [(line: String, skippable: VerifyReport.LogNumber?)]
    {
        let differing = Set(mine.keys).union(theirs.keys).filter { mine[$0] != theirs[$0] }.sorted()
        var coverage: [String: Int64]?  // what the newest baselines cover, read once when needed
        var blocked: [(line: String, skippable: VerifyReport.LogNumber?)] = []
        for writer in differing {
            let here = mine[writer] ?? 0
            let there = theirs[writer] ?? 0
            let next = min(here, there) + 1
            let waiter = here < there ? "this device" : "device \(otherDevice.debugDescription)"
            let url = layout.logURL(peer: writer, seq: next)
            let problem: String
            switch FileStamp.of(url) {
            case .failure:
                problem = FileStamp.exists(url) ? "is not a file" : "is not in the cloud folder"
            case .success:
                do {
                    _ = try LogFile.read(at: url, expecting: layout, peer: writer, seq: next)
                    continue  // there and whole: the waiting side applies it when it syncs
                } catch let failure as LogFileFailure {
                    problem = "is damaged there (\(failure.error.description))"
                } catch {
                    problem = "is damaged there (\((error as? LogFileError)?.description ?? ErrorText.reason(error)))"
                }
            }
            if coverage == nil { coverage = newestBaselinesCoverage() }
            if (coverage?[writer] ?? 0) >= next { continue }  // a baseline takes the waiting side past it
            let whose = writer == peer ? "this device" : "peer \(writer)"
            let line =
                "\(waiter) waits for log \(next) of \(whose) (\(layout.relativePath(url))), which \(problem), and no baseline covers it: "
                + (writer == peer
                    ? "this device publishes a baseline that covers it at its next sync"
                    : "the device that wrote it publishes one at its next sync; if it never syncs again, the waiting device may skip it")
            blocked.append((line, writer == peer ? nil : VerifyReport.LogNumber(peer: writer, seq: next)))
        }
        return blocked
    }

    /// Per peer, the furthest log any peer's newest baseline covers.
    private func newestBaselinesCoverage() -> [String: Int64] {
        var coverage: [String: Int64] = [:]
        let newest = Dictionary(layout.baselineFiles().map { ($0.peer, $0.number) }, uniquingKeysWith: max)
        for (writer, number) in newest {
            guard
                let (_, baseline) = try? Baseline.read(
                    at: layout.baselineURL(peer: writer, number: number), expecting: layout,
                    peer: writer, number: number)
            else { continue }
            coverage.merge(baseline.covers, uniquingKeysWith: max)
        }
        return coverage
    }

    static func describe(_ mine: [String: Int64], _ theirs: [String: Int64]) -> String {
        let peers = Set(mine.keys).union(theirs.keys).filter { mine[$0] != theirs[$0] }.sorted()
        let detail = peers.prefix(3).map { "peer \($0.prefix(8))…: \(mine[$0] ?? 0) here, \(theirs[$0] ?? 0) there" }
        return "different logs applied (\(detail.joined(separator: "; "))); compare again once both have synced"
    }

    // MARK: - Local bookkeeping

    private func storedJSON<Value: Decodable>(_ type: Value.Type, _ key: String) throws -> Value? {
        guard let text = try store.metadata(key) else { return nil }
        return try? JSONDecoder().decode(Value.self, from: Data(text.utf8))
    }

    private func storeJSON<Value: Encodable>(_ value: Value, _ key: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try store.setMetadata(key, String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
