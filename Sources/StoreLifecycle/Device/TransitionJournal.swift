import Foundation
import TextAndFiles
import Ubiquity

#if canImport(Glibc)
    import Glibc
#endif

/// Every store transition a device went through, one JSON line each, in
/// `<sandbox>/transitions.jsonl`: what `cloud status --json` lists, most recent first.
public struct TransitionJournal: Sendable {
    public struct Entry: Codable, Equatable, Sendable {
        /// ISO 8601, UTC.
        public var at: String
        public var transition: String
        /// The stores that went away and came, as ``StoreDescription/description`` words.
        public var removed: [String]
        public var added: [String]
        /// A line saying what happened ("3 records moved from the fallback store").
        public var detail: String
        /// Which process performed it: "tui", "item add", …
        public var by: String
    }

    public let url: URL

    public init(sandbox: DeviceSandbox) {
        url = sandbox.root.appendingPathComponent("transitions.jsonl")
    }

    /// Appends one entry with a single `write` on an `O_APPEND` file: two processes recording at
    /// once never interleave their lines.
    public func record(_ change: StoreChange, detail: String, by: String, at date: Date = Date()) throws {
        try append(
            Entry(
                at: Self.format(date), transition: change.transition.rawValue,
                removed: change.removed.map(\.description), added: change.added.map(\.description),
                detail: detail, by: by))
    }

    /// Records a decision that changed what the store holds without changing stores
    /// (`peerReleased`: a refused log skipped by the user).
    public func record(event: String, detail: String, by: String, at date: Date = Date()) throws {
        try append(Entry(at: Self.format(date), transition: event, removed: [], added: [], detail: detail, by: by))
    }

    private func append(_ entry: Entry) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var line = try encoder.encode(entry)
        line.append(UInt8(ascii: "\n"))
        let fd = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError.unwritable(path: url.path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let written = line.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == line.count else {
            throw FileError.unwritable(path: url.path, reason: String(cString: strerror(errno)))
        }
    }

    /// The most recent entries first; lines that do not parse (a damaged file) are skipped.
    public func entries(limit: Int = 100) -> [Entry] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        let decoder = JSONDecoder()
        var result: [Entry] = []
        for line in data.split(separator: UInt8(ascii: "\n")).reversed() {
            guard result.count < limit else { break }
            if let entry = try? decoder.decode(Entry.self, from: Data(line)) { result.append(entry) }
        }
        return result
    }

    public static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
