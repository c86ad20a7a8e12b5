import Foundation
import GRDB

extension ObjectStore {
    /// The store's digest, read in the caller's (read) transaction: the buckets this process's
    /// writes changed since its last digest are computed again, the others' hashes reused
    /// (``DigestChanges``); the whole store is read when anything was not seen here. Equal, by
    /// construction, to ``Digest/compute(schema:applied:_:)``; ``verify()`` checks it.
    ///
    /// The digest holds the contents (``Digest/objects(in:)``) of the buckets computed again
    /// only; ``Digest/filledIn(_:schema:_:)`` reads the others' when a detail needs them.
    public func digest(applied: [String: Int64], _ db: Database) throws -> Digest {
        let counts = try Outbox.changeCounts(db)
        if let (reused, changed) = digestChanges.reusable(at: counts),
            let contents = try Digest.bucketContents(schema: schema, only: changed, db)
        {
            var buckets = reused
            for bucket in changed { buckets[bucket] = contents[bucket].map { SHA256.hex($0.bytes) } }
            digestChanges.remember(buckets, at: counts)
            return Digest(
                applied: applied.filter { $0.value > 0 }, buckets: buckets, top: Digest.topHash(buckets),
                contents: contents)
        }
        let digest = try Digest.compute(schema: schema, applied: applied, db)
        digestChanges.remember(digest.buckets, at: counts)
        return digest
    }

    /// The digest computed whole, and the one ``digest(applied:_:)`` gives, in one transaction.
    /// They must agree; a disagreement is a defect, and the whole one is the store's.
    public func checkedDigest(applied: [String: Int64], _ db: Database) throws -> (
        digest: Digest, incrementalAgreed: Bool
    ) {
        let incremental = try digest(applied: applied, db)
        let whole = try Digest.compute(schema: schema, applied: applied, db)
        digestChanges.remember(whole.buckets, at: try Outbox.changeCounts(db))
        return (whole, incremental.buckets == whole.buckets && incremental.top == whole.top)
    }
}
