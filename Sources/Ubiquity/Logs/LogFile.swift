import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One transaction log: immutable, written once by its peer.
///
/// ```
/// GDLOG 1
/// {"crc32":"…","device":"kitchen","epoch":1,"length":1234,"modelVersion":2,"peer":"…","seq":17,"storeName":"Notes"}
/// {…the TransactionRecord as JSON…}
/// ```
/// The header says what the file is; `length` and `crc32` cover the payload's bytes, so a
/// truncated or damaged file is recognised and never applied.
public struct LogFile: Equatable, Sendable {
    public struct Header: Codable, Equatable, Sendable {
        public var storeName: String
        public var modelVersion: Int
        public var epoch: Int
        public var peer: String
        public var device: String
        public var seq: Int64
        public var length: Int
        public var crc32: String
        /// Which copy of the peer's data folder wrote the file (given by the app):
        /// two copies of one device in use at once are told apart by it. Absent from files of
        /// earlier builds.
        public var instance: String?
        /// Who uses the device that wrote it (its person, `person set`): whose change it was.
        /// Absent from files of earlier builds, which read files that have it as before.
        public var person: String?
    }

    public static let magic = "GDLOG 1"

    public let header: Header
    public let record: TransactionRecord
    /// The record's bytes as the file holds them (JSON): what this device's history keeps of an
    /// imported log (``ChangeHistory``), without encoding the record again.
    public let payload: Data

    /// The file's bytes for a record.
    public static func encode(
        _ record: TransactionRecord, layout: CloudLayout, peer: String, device: String, seq: Int64,
        instance: String? = nil, person: String? = nil
    ) throws -> Data {
        try seal(
            record.jsonData(), magic: magic, layout: layout, peer: peer, device: device, seq: seq, instance: instance,
            person: person)
    }

    /// The largest log read, in bytes: a save of a whole imported list fits many times over;
    /// anything larger is refused after reading its header.
    public static let maximumBytes = 64 << 20

    /// Reads and verifies a log's bytes against what the reader expects.
    ///
    /// - Throws: ``LogFileError`` saying what is wrong.
    public static func decode(_ data: Data, expecting layout: CloudLayout, peer: String, seq: Int64) throws -> LogFile {
        let (header, payload) = try open(data, magic: magic, expecting: layout, peer: peer, seq: seq)
        return LogFile(header: header, record: try record(payload), payload: payload)
    }

    /// Reads and verifies a log file, reading no more than its header when it is too large or
    /// not what it should be.
    ///
    /// - Throws: ``LogFileError`` saying what is wrong; ``LogFileError/header`` carries what
    ///   the header said, when it could be read.
    public static func read(at url: URL, expecting layout: CloudLayout, peer: String, seq: Int64) throws -> LogFile {
        let (header, payload) = try EnvelopeFile.read(
            at: url, magic: magic, limit: maximumBytes,
            expecting: layout, peer: peer, seq: seq)
        do {
            return LogFile(header: header, record: try record(payload), payload: payload)
        } catch let error as LogFileError {
            throw LogFileFailure(error: error, header: header)
        }
    }

    private static func record(_ payload: Data) throws -> TransactionRecord {
        do {
            return try TransactionRecord(jsonData: payload)
        } catch {
            throw LogFileError.badPayload
        }
    }

    // MARK: - The envelope shared by logs and baselines

    /// A magic line, a JSON header saying what the file is (with the payload's length and
    /// CRC-32), then the payload.
    static func seal(
        _ payload: Data, magic: String, layout: CloudLayout, peer: String, device: String, seq: Int64,
        instance: String? = nil, person: String? = nil
    ) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let header = Header(
            storeName: layout.storeName, modelVersion: layout.modelVersion, epoch: layout.epoch, peer: peer,
            device: device, seq: seq, length: payload.count, crc32: String(CRC32.checksum(payload), radix: 16),
            instance: instance, person: person)
        return Data((magic + "\n").utf8) + (try encoder.encode(header)) + Data("\n".utf8) + payload
    }

    /// Checks an envelope held in memory and returns its header and payload.
    static func open(_ data: Data, magic: String, expecting layout: CloudLayout, peer: String, seq: Int64) throws -> (
        Header, Data
    ) {
        let lines = data.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.count == 3, String(decoding: lines[0], as: UTF8.self) == magic else {
            throw LogFileError.notALog
        }
        let header = try EnvelopeFile.header(Data(lines[1]), expecting: layout, peer: peer, seq: seq)
        let payload = Data(lines[2])
        guard payload.count == header.length else {
            throw LogFileError.truncated(expected: header.length, found: payload.count)
        }
        guard String(CRC32.checksum(payload), radix: 16) == header.crc32 else { throw LogFileError.checksumMismatch }
        return (header, payload)
    }
}

/// A log's or baseline's file read within bounds: the header first (a few kilobytes at most),
/// then the payload only when the file's size is what the header says and under the limit,
/// with its checksum computed as it is read.
enum EnvelopeFile {
    /// The longest magic line plus header line read before anything else.
    static let maximumHeaderBytes = 4096

    static func read(at url: URL, magic: String, limit: Int, expecting layout: CloudLayout, peer: String, seq: Int64)
        throws -> (LogFile.Header, Data)
    {
        let (header, payload, _) = try read(
            at: url, magics: [magic], limit: limit, expecting: layout, peer: peer, seq: seq)
        return (header, payload)
    }

    /// Reads an envelope whose magic line is one of `magics` (the formats a kind of file has
    /// had); the magic found comes back with the header and payload.
    static func read(at url: URL, magics: [String], limit: Int, expecting layout: CloudLayout, peer: String, seq: Int64)
        throws -> (LogFile.Header, Data, magic: String)
    {
        let (fd, size) = try openRegularFile(url)
        defer { close(fd) }
        let (header, magic, prefix, payloadStart) = try readHeader(
            fd, size: size, magics: magics, expecting: layout, peer: peer, seq: seq)
        guard header.length <= limit else {
            throw LogFileFailure(error: .tooLarge(bytes: header.length, limit: limit), header: header)
        }
        guard size - payloadStart == header.length else {
            let error: LogFileError =
                size - payloadStart < header.length
                ? .truncated(expected: header.length, found: size - payloadStart)
                : .longerThanItsHeader(expected: header.length, found: size - payloadStart)
            throw LogFileFailure(error: error, header: header)
        }
        var payload = Data(prefix[payloadStart...])
        payload.reserveCapacity(header.length)
        var crc = CRC32.update(CRC32.initial, payload)
        while payload.count < header.length {
            let chunk = try readUpTo(fd, count: min(1 << 20, header.length - payload.count))
            guard !chunk.isEmpty else {
                throw LogFileFailure(error: .truncated(expected: header.length, found: payload.count), header: header)
            }
            crc = CRC32.update(crc, chunk)
            payload.append(chunk)
        }
        guard String(CRC32.finish(crc), radix: 16) == header.crc32 else {
            throw LogFileFailure(error: .checksumMismatch, header: header)
        }
        return (header, payload, magic)
    }

    /// Checks an envelope's size against its header, reading the header only (a few kilobytes):
    /// what an audit of a device's own files affords at every round.
    ///
    /// - Throws: what ``read(at:magics:limit:expecting:peer:seq:)`` would find wrong with the
    ///   header or the size; nothing about the payload's checksum.
    static func checkSize(at url: URL, magics: [String], expecting layout: CloudLayout, peer: String, seq: Int64) throws
    {
        let (header, found) = try header(at: url, magics: magics, expecting: layout, peer: peer, seq: seq)
        guard found == header.length else {
            throw found < header.length
                ? LogFileError.truncated(expected: header.length, found: found)
                : LogFileError.longerThanItsHeader(expected: header.length, found: found)
        }
    }

    /// An envelope's header, read alone (a few kilobytes), with the bytes that follow it.
    static func header(at url: URL, magics: [String], expecting layout: CloudLayout, peer: String, seq: Int64)
        throws -> (header: LogFile.Header, payloadBytes: Int)
    {
        let (fd, size) = try openRegularFile(url)
        defer { close(fd) }
        let (header, _, _, payloadStart) = try readHeader(
            fd, size: size, magics: magics, expecting: layout, peer: peer, seq: seq)
        return (header, size - payloadStart)
    }

    /// Opens a file for reading when it is a regular file, never following a link (O_NONBLOCK:
    /// a FIFO named like a log must not hang the reader; it is then refused as not a regular
    /// file), with its size.
    private static func openRegularFile(_ url: URL) throws -> (fd: Int32, size: Int) {
        let fd = Glibc.open(url.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            throw errno == ELOOP
                ? LogFileError.notARegularFile("a symbolic link")
                : LogFileError.unreadable(String(cString: strerror(errno)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw LogFileError.unreadable(reason)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw LogFileError.notARegularFile("a folder or device")
        }
        return (fd, Int(info.st_size))
    }

    /// Reads an envelope's magic line and header from the open file `fd` (its first
    /// ``maximumHeaderBytes`` at most).
    private static func readHeader(
        _ fd: Int32, size: Int, magics: [String], expecting layout: CloudLayout, peer: String, seq: Int64
    )
        throws -> (header: LogFile.Header, magic: String, prefix: Data, payloadStart: Int)
    {
        let prefix = try readUpTo(fd, count: min(size, maximumHeaderBytes))
        guard let firstNewline = prefix.firstIndex(of: UInt8(ascii: "\n")) else { throw LogFileError.notALog }
        let firstLine = String(decoding: prefix[..<firstNewline], as: UTF8.self)
        guard let magic = magics.first(where: { $0 == firstLine }) else {
            throw isLaterFormat(firstLine, of: magics) ? LogFileError.unknownFormat(firstLine) : LogFileError.notALog
        }
        guard let secondNewline = prefix[(firstNewline + 1)...].firstIndex(of: UInt8(ascii: "\n")) else {
            // A header that never ends: too long to be one, or a copy cut short (read again later).
            throw size > maximumHeaderBytes
                ? LogFileError.badHeader : LogFileError.unreadable("its header is cut short")
        }
        let header = try self.header(
            Data(prefix[(firstNewline + 1)..<secondNewline]), expecting: layout, peer: peer, seq: seq)
        return (header, magic, prefix, secondNewline + 1)
    }

    /// Whether `line` names a format of the same kind of file that this build does not know:
    /// the kind's word and another number (`GDLOG 2` when it reads `GDLOG 1`), as a newer
    /// build would write.
    static func isLaterFormat(_ line: String, of magics: [String]) -> Bool {
        guard let known = magics.first, let space = known.lastIndex(of: " ") else { return false }
        let kind = known[...space]
        let number = line.utf8.dropFirst(kind.utf8.count)
        return line.hasPrefix(kind) && (1...9).contains(number.count)
            && number.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// Decodes and checks a header line: what it names must be what the reader expects.
    static func header(_ line: Data, expecting layout: CloudLayout, peer: String, seq: Int64) throws -> LogFile.Header {
        let header: LogFile.Header
        do {
            header = try JSONDecoder().decode(LogFile.Header.self, from: line)
        } catch {
            throw LogFileError.badHeader
        }
        guard header.length >= 0, HLC.isPeerName(header.peer), header.device.utf8.count <= 256,
            header.instance.map(HLC.isPeerName) ?? true, (header.person?.utf8.count ?? 0) <= 1024
        else {
            throw LogFileError.badHeader
        }
        guard header.storeName == layout.storeName, header.modelVersion == layout.modelVersion,
            header.epoch == layout.epoch, header.peer == peer, header.seq == seq
        else { throw LogFileFailure(error: .foreign, header: header) }
        return header
    }

    /// Reads up to `count` bytes (fewer only at the end of the file).
    private static func readUpTo(_ fd: Int32, count: Int) throws -> Data {
        var data = Data(count: count)
        var filled = 0
        while filled < count {
            let got = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, count - filled) }
            if got < 0 {
                if errno == EINTR { continue }
                throw LogFileError.unreadable(String(cString: strerror(errno)))
            }
            if got == 0 { break }
            filled += got
        }
        return data.prefix(filled)
    }
}

/// A log or baseline refused after its header was read: the error, and who the header says
/// wrote the file.
public struct LogFileFailure: Error, CustomStringConvertible {
    public let error: LogFileError
    public let header: LogFile.Header

    public var description: String { error.description }
}

/// Why a log file is not applied.
public enum LogFileError: Error, Equatable, CustomStringConvertible {
    case notALog
    case badHeader
    case truncated(expected: Int, found: Int)
    case checksumMismatch
    case foreign
    case badPayload
    case unreadable(String)
    case notARegularFile(String)
    case tooLarge(bytes: Int, limit: Int)
    case longerThanItsHeader(expected: Int, found: Int)
    /// The first line names a format of its kind this build does not read: a newer build wrote it.
    case unknownFormat(String)

    /// Whether the file may still be arriving (a sync engine copying it): read again when it
    /// changes, and never reported to its writer as refused.
    public var mayBeInTransit: Bool {
        switch self {
        case .truncated, .unreadable, .checksumMismatch: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .notALog: "not a transaction log"
        case .badHeader: "its header cannot be read"
        case .truncated(let expected, let found): "truncated: \(found) of \(expected) bytes"
        case .checksumMismatch: "its checksum does not match: the file is damaged"
        case .foreign: "its header names another store, version, epoch, peer or sequence number"
        case .badPayload: "its transaction cannot be read"
        case .unreadable(let reason): "cannot be read: \(reason)"
        case .notARegularFile(let what): "it is \(what), not a file"
        case .tooLarge(let bytes, let limit): "it is \(bytes) bytes, more than the \(limit) a file of its kind may have"
        case .longerThanItsHeader(let expected, let found):
            "it has \(found) bytes after its header, which says \(expected)"
        case .unknownFormat(let magic):
            "it is in a format this build does not read (\(magic)): update this device to read it"
        }
    }
}
