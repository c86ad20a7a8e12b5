import Foundation
import TextAndFiles

/// Names that users type and that become names of folders and files — devices, accounts, store
/// names — are one name however the keyboard encoded them: "Café" typed with a composed "é"
/// (U+00E9) or with "e" and a combining accent (U+0301) is one device, one account, one folder.
///
/// They are normalized to NFC before they become paths, and their limits are checked on the
/// normalized form, in bytes, as the file system stores them. Linux file systems keep names as
/// bytes, so a folder made by an earlier build, which kept names as typed, may be in another
/// form: it is still found (see ``url(of:suffix:in:isDirectory:)``).
public enum PathName {
    /// The name in Unicode normalization form C. ASCII, the common case, is its own form: the
    /// mapping goes through `NSString` and costs every command two conformance walks of the
    /// Swift runtime (docs/decisions/0176).
    public static func normalized(_ name: String) -> String {
        name.isASCII ? name : name.precomposedStringWithCanonicalMapping
    }

    /// Where the entry for `name` (plus `suffix`, such as `.sqlite`) is in `folder`: the
    /// normalized name, unless no entry has that name and one entry is the same name in another
    /// Unicode form — made by an earlier build — which is then used, so that its data is not
    /// left behind. ASCII names, the common case, touch no file.
    public static func url(of name: String, suffix: String = "", in folder: URL, isDirectory: Bool) -> URL {
        let wanted = normalized(name) + suffix
        let url = folder.appendingPathComponent(wanted, isDirectory: isDirectory)
        if wanted.isASCII || FileManager.default.fileExists(atPath: url.path) { return url }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        // Swift compares strings by canonical equivalence: `==` finds the other forms.
        guard
            let existing = entries.sorted(by: { Array($0.utf8).lexicographicallyPrecedes($1.utf8) }).first(where: {
                $0 == wanted
            })
        else {
            return url
        }
        return folder.appendingPathComponent(existing, isDirectory: isDirectory)
    }
}

/// A folder found by a search that may have to wait (a cloud folder not mounted yet): the first
/// answer that is final is kept, earlier ones are tried again at the next use.
final class FoundFolder: @unchecked Sendable {
    private let find: @Sendable () -> (url: URL, isFinal: Bool)
    private let lock = NSLock()
    private var found: URL?

    init(_ find: @escaping @Sendable () -> (url: URL, isFinal: Bool)) {
        self.find = find
    }

    func url() -> URL {
        lock.withLock {
            if let found { return found }
            let answer = find()
            if answer.isFinal { found = answer.url }
            return answer.url
        }
    }
}
