extension String {
    /// Whether every byte of the text is ASCII (below 0x80): ASCII text is its own Unicode
    /// normal form, compares byte for byte, and is one terminal column a printable character.
    ///
    /// Read from the bytes where they lie: a `UTF8View` walked byte by byte costs about 30
    /// instructions a byte, and an import asks it of every peer folder's name.
    public var isASCII: Bool {
        utf8.withContiguousStorageIfAvailable { $0.isASCII } ?? utf8.isASCII
    }
}

extension Sequence<UInt8> {
    /// Whether every byte is ASCII (below 0x80): a name as `readdir` gave it, a field of a file.
    public var isASCII: Bool { allSatisfy { $0 < 0x80 } }
}
