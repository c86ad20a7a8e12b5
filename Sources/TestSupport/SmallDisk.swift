import Foundation

/// A real, small, fillable disk: a tmpfs of `bytes` mounted on a fresh folder, unmounted and
/// removed when the value goes away. Mounting takes root (`CAP_SYS_ADMIN`), which CI has: a test
/// that needs a full disk fails without it, saying why (``needsRoot``), rather than skipping.
public final class SmallDisk: @unchecked Sendable {
    public let url: URL
    private let folder: TemporaryDirectory

    public init?(bytes: Int) {
        folder = TemporaryDirectory("small-disk")
        url = folder.url
        guard Self.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", url.path]) else { return nil }
    }

    deinit {
        _ = Self.run("/usr/bin/umount", [url.path])
    }

    public var path: String { url.path }

    /// Why a test that needs a small disk cannot have one.
    public static let needsRoot = "a full disk is a tmpfs mounted by the test: run the tests as root (CI does)"

    /// The bytes left on the disk.
    public var freeBytes: Int {
        var stats = statvfs()
        guard statvfs(url.path, &stats) == 0 else { return 0 }
        return Int(stats.f_bavail) * Int(stats.f_frsize)
    }

    /// Fills the disk until `leaving` bytes are left (a file named `filler`).
    public func fill(leaving: Int) throws {
        try? FileManager.default.removeItem(at: filler)
        let size = max(0, freeBytes - leaving)
        // Whether it was made, the open below says (and why not).
        _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        defer { try? handle.close() }
        // Written, not sized with truncate: a tmpfs counts only the pages written.
        let chunk = Data(count: 64 * 1024)
        var written = 0
        while written < size {
            let part = chunk.prefix(min(chunk.count, size - written))
            do { try handle.write(contentsOf: part) } catch { break }
            written += part.count
        }
    }

    /// Gives the space `fill(leaving:)` took back.
    public func empty() throws {
        try FileManager.default.removeItem(at: filler)
    }

    private var filler: URL { url.appendingPathComponent("filler") }

    private static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
