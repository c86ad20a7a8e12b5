import Foundation

extension GlobalID {
    /// The ID named by `parts` in `namespace`: the same on every device, so that an object every
    /// device makes from the same description (data shipped with the app) is one object
    /// everywhere, whose copies merge property by property instead of being duplicates.
    ///
    /// A name-based UUID (RFC 9562, version 8 with SHA-256, as in its appendix B.2): the first
    /// 16 bytes of the SHA-256 of the namespace's 16 bytes followed by each part's UTF-8 bytes,
    /// each part ended by a zero byte (so that `["ab", "c"]` and `["a", "bc"]` differ), with the
    /// version and variant bits set.
    ///
    /// ```swift
    /// GlobalID.derived(from: ["Unit", "kg"], in: namespace)  // the unit "kg", on every device
    /// ```
    public static func derived(from parts: [String], in namespace: GlobalID) -> GlobalID {
        var bytes = withUnsafeBytes(of: namespace.uuid.uuid) { Array($0) }
        for part in parts {
            bytes += Array(part.utf8)
            bytes.append(0)
        }
        var hash = Array(SHA256.digest(bytes).prefix(16))
        hash[6] = (hash[6] & 0x0F) | 0x80
        hash[8] = (hash[8] & 0x3F) | 0x80
        let uuid = hash.withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)) }
        return GlobalID(uuid)
    }
}
