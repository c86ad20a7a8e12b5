import Foundation

/// One transaction log: immutable, written once by its peer.
///
/// ```
/// GDLOG 1
/// {"crc32":"…","device":"kitchen","epoch":1,"length":1234,"modelVersion":2,"peer":"…","seq":17,"storeName":"GroceryDude"}
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
    }

    public static let magic = "GDLOG 1"

    public let header: Header
    public let record: TransactionRecord

    /// The file's bytes for a record.
    public static func encode(_ record: TransactionRecord, layout: CloudLayout, peer: String, device: String, seq: Int64) throws -> Data {
        try seal(record.jsonData(), magic: magic, layout: layout, peer: peer, device: device, seq: seq)
    }

    /// Reads and verifies a log's bytes against what the reader expects.
    ///
    /// - Throws: ``LogFileError`` saying what is wrong.
    public static func decode(_ data: Data, expecting layout: CloudLayout, peer: String, seq: Int64) throws -> LogFile {
        let (header, payload) = try open(data, magic: magic, expecting: layout, peer: peer, seq: seq)
        do {
            return LogFile(header: header, record: try TransactionRecord(jsonData: payload))
        } catch {
            throw LogFileError.badPayload
        }
    }

    // MARK: - The envelope shared by logs and baselines

    /// A magic line, a JSON header saying what the file is (with the payload's length and
    /// CRC-32), then the payload.
    static func seal(_ payload: Data, magic: String, layout: CloudLayout, peer: String, device: String, seq: Int64) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let header = Header(
            storeName: layout.storeName, modelVersion: layout.modelVersion, epoch: layout.epoch, peer: peer,
            device: device, seq: seq, length: payload.count, crc32: String(CRC32.checksum(payload), radix: 16))
        return Data((magic + "\n").utf8) + (try encoder.encode(header)) + Data("\n".utf8) + payload
    }

    /// Checks an envelope and returns its header and payload.
    static func open(_ data: Data, magic: String, expecting layout: CloudLayout, peer: String, seq: Int64) throws -> (Header, Data) {
        let lines = data.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.count == 3, String(decoding: lines[0], as: UTF8.self) == magic else {
            throw LogFileError.notALog
        }
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: Data(lines[1]))
        } catch {
            throw LogFileError.badHeader
        }
        let payload = Data(lines[2])
        guard payload.count == header.length else { throw LogFileError.truncated(expected: header.length, found: payload.count) }
        guard String(CRC32.checksum(payload), radix: 16) == header.crc32 else { throw LogFileError.checksumMismatch }
        guard header.storeName == layout.storeName, header.modelVersion == layout.modelVersion,
              header.epoch == layout.epoch, header.peer == peer, header.seq == seq
        else { throw LogFileError.foreign }
        return (header, payload)
    }
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

    public var description: String {
        switch self {
        case .notALog: "not a Grocery Dude log"
        case .badHeader: "its header cannot be read"
        case .truncated(let expected, let found): "truncated: \(found) of \(expected) bytes"
        case .checksumMismatch: "its checksum does not match: the file is damaged"
        case .foreign: "its header names another store, version, epoch, peer or sequence number"
        case .badPayload: "its transaction cannot be read"
        case .unreadable(let reason): "cannot be read: \(reason)"
        }
    }
}
