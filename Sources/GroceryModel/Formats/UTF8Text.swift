import Foundation

/// The text of an import file, which must be UTF-8: a byte that is not is an error saying
/// where, never silently replaced by U+FFFD.
enum UTF8Text {
    /// The file's bytes as a string.
    ///
    /// - Throws: ``ArchiveError/malformed(_:)``: "the file is not valid UTF-8 (byte offset N)".
    static func decode(_ data: Data) throws -> String {
        if let text = String(validating: data, as: UTF8.self) { return text }
        throw notUTF8(at: invalidOffset(in: data) ?? 0)
    }

    /// Checks that the file's bytes are UTF-8 (for readers that parse the bytes themselves).
    static func check(_ data: Data) throws {
        if let offset = invalidOffset(in: data) { throw notUTF8(at: offset) }
    }

    /// The offset of the first byte that does not belong to a valid UTF-8 sequence; `nil` when
    /// all of them do.
    static func invalidOffset(in bytes: some Sequence<UInt8>) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error: return offset
            case .emptyInput: return nil
            }
        }
    }

    private static func notUTF8(at offset: Int) -> ArchiveError {
        .malformed("the file is not valid UTF-8 (byte offset \(offset))")
    }
}
