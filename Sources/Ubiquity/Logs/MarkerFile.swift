import Foundation

/// The envelope of the cloud folder's small marker files (start-over markers, folder markers):
///
/// ```
/// <magic line>
/// <one line of JSON>
/// <CRC-32 of the JSON line, hex>
/// ```
///
/// Read as any file from the folder: a regular file, bounded, with a checksum that matches.
enum MarkerFile {
    /// The largest marker read.
    static let maximumBytes = 4096

    /// A marker's bytes around `body`.
    static func seal(_ body: Data, magic: String) -> Data {
        Data((magic + "\n").utf8) + body + Data(("\n" + String(CRC32.checksum(body), radix: 16) + "\n").utf8)
    }

    /// The JSON line of the marker at `url`, or why it cannot be one.
    ///
    /// - Parameter bare: whether a file of the JSON line alone counts (what earlier builds wrote,
    ///   with no magic and no checksum).
    static func body(of url: URL, magic: String, bare: Bool = false) -> Result<Data, RuleViolation> {
        switch FileStamp.of(url) {
        case .failure(let error): return .failure(RuleViolation(error.description))
        case .success(let stamp) where stamp.size > Int64(maximumBytes):
            return .failure(RuleViolation("it is \(stamp.size) bytes; a marker has at most \(maximumBytes)"))
        case .success: break
        }
        guard let data = try? Data(contentsOf: url), !data.isEmpty else {
            return .failure(RuleViolation("it is empty"))
        }
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard lines.count >= 3, String(decoding: lines[0], as: UTF8.self) == magic else {
            return bare ? .success(Data(lines[0])) : .failure(RuleViolation("it is not a marker"))
        }
        let body = Data(lines[1])
        guard String(decoding: lines[2], as: UTF8.self) == String(CRC32.checksum(body), radix: 16) else {
            return .failure(RuleViolation("its checksum does not match"))
        }
        return .success(body)
    }
}
