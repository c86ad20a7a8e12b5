#if canImport(Glibc)
    import Glibc
#endif

/// The names in an open folder (without `.` and `..`), as `readdir` gives them: their bytes one
/// after another, each with its NUL, so that a survey of peer folders checks, stamps and hashes a
/// name where it lies and makes a string only of the names it must read further — none for a
/// departed peer whose bucket is as recorded (docs/decisions/0183).
struct FolderNames {
    private var bytes: [UInt8] = []
    /// Where each name starts in `bytes`; it ends at its NUL.
    private var starts: [Int] = []

    /// Reads the folder; nil when reading it fails.
    init?(_ handle: OpaquePointer) {
        bytes.reserveCapacity(4096)
        while true {
            errno = 0
            guard let entry = readdir(handle) else {
                guard errno == 0 else { return nil }
                return
            }
            withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                let name = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
                let length = strlen(UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self))
                let isDot =
                    name[0] == UInt8(ascii: ".") && (length == 1 || (length == 2 && name[1] == UInt8(ascii: ".")))
                guard !isDot else { return }
                starts.append(bytes.count)
                bytes.append(contentsOf: UnsafeBufferPointer(start: name, count: length + 1))
            }
        }
    }

    var count: Int { starts.count }

    /// Name `index` as a string, as `String(cString:)` reads it (invalid UTF-8 repaired).
    subscript(index: Int) -> String {
        bytes.withUnsafeBufferPointer { all in
            String(decoding: Self.name(index, starts, all), as: UTF8.self)
        }
    }

    /// Lends every name's bytes (without its NUL) by index, for the time of `body`; a name's
    /// bytes are followed by its NUL, so that its base address is a C string.
    func withNames<R>(_ body: ((Int) -> UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { all in try body { Self.name($0, starts, all) } }
    }

    /// Name `index` among `all` (without its NUL).
    private static func name(_ index: Int, _ starts: [Int], _ all: UnsafeBufferPointer<UInt8>) -> Name {
        let end = index + 1 < starts.count ? starts[index + 1] - 1 : all.count - 1
        return Name(rebasing: all[starts[index]..<end])
    }

    /// A name's bytes, lent.
    private typealias Name = UnsafeBufferPointer<UInt8>
}
