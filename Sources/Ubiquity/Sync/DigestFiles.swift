import Foundation
import TextAndFiles

/// Where digests live and how they are written and read:
///
/// ```
/// <epoch>/digests/<peer>/<n>.gddigest   the digest a peer published: applied vector, top and bucket hashes
/// <epoch>/digests/<peer>/<n>.gddetail   the object hashes of some buckets, at an applied vector
/// ```
///
/// Both in the envelope of logs (magic line, JSON header with length and CRC-32, payload), so
/// a damaged or foreign file is recognised. Every file here may come from a buggy or hostile
/// peer: read at most ``maxSize`` bytes, of regular files only, and check every field.
enum DigestFiles {
    static let digestMagic = "GDDIGEST 1"
    static let detailMagic = "GDDETAIL 1"
    static let digestExtension = "gddigest"
    static let detailExtension = "gddetail"
    /// Larger files are refused unread.
    static let maxSize = 1 << 20
    /// How many of its own digests (and details) a peer keeps; older ones it deletes.
    static let kept = 3

    /// A published digest's payload.
    struct Published: Codable, Equatable {
        var created: Double
        var applied: [String: Int64]
        var top: String
        var buckets: [String: String]
    }

    /// A detail file's payload: the objects of some buckets (of the digest with `top`).
    struct Detail: Codable, Equatable {
        var created: Double
        var applied: [String: Int64]
        var top: String
        var buckets: [String: [Digest.ObjectHash]]
    }

    // MARK: - Writing

    static func encode<Payload: Encodable>(
        _ payload: Payload, magic: String, layout: CloudLayout, peer: String,
        device: String, number: Int64
    ) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try LogFile.seal(
            try encoder.encode(payload), magic: magic, layout: layout, peer: peer, device: device, seq: number)
    }

    // MARK: - Reading

    /// Reads and checks one file; the device name comes from its header.
    static func read<Payload: Decodable>(
        _ url: URL, as type: Payload.Type, magic: String, layout: CloudLayout,
        peer: String, number: Int64
    ) throws -> (device: String, payload: Payload) {
        let data = try readBounded(url)
        let (header, bytes) = try LogFile.open(data, magic: magic, expecting: layout, peer: peer, seq: number)
        do {
            return (header.device, try JSONDecoder().decode(Payload.self, from: bytes))
        } catch {
            throw DigestFileError.badPayload
        }
    }

    /// At most ``maxSize`` bytes of a regular file, checked before and while reading (a file
    /// may still grow).
    static func readBounded(_ url: URL) throws -> Data {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw DigestFileError.unreadable(ErrorText.reason(error))
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else { throw DigestFileError.notAFile }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maxSize else { throw DigestFileError.tooLarge(size) }
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            let data = try handle.read(upToCount: maxSize + 1) ?? Data()
            guard data.count <= maxSize else { throw DigestFileError.tooLarge(data.count) }
            return data
        } catch let error as DigestFileError {
            throw error
        } catch {
            throw DigestFileError.unreadable(ErrorText.reason(error))
        }
    }

    // MARK: - Checking what a peer wrote

    static func isHash(_ text: String) -> Bool {
        text.utf8.count == 64
            && text.utf8.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
    }

    static func isBucket(_ text: String) -> Bool {
        text.utf8.count == 2
            && text.utf8.allSatisfy {
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            }
    }

    static func isVector(_ applied: [String: Int64]) -> Bool {
        applied.count <= 10_000 && applied.allSatisfy { !$0.key.isEmpty && $0.key.utf8.count <= 200 && $0.value > 0 }
    }

    static func check(_ published: Published) throws {
        guard isVector(published.applied), isHash(published.top), published.buckets.count <= 256,
            published.buckets.allSatisfy({ isBucket($0.key) && isHash($0.value) }),
            Digest.topHash(published.buckets) == published.top
        else { throw DigestFileError.badPayload }
    }

    /// Checks a detail against the schema: only known entities and real IDs are ever shown.
    static func check(_ detail: Detail, schema: Schema) throws {
        guard isVector(detail.applied), isHash(detail.top), detail.buckets.count <= 256,
            detail.buckets.allSatisfy({ bucket, objects in
                isBucket(bucket)
                    && objects.allSatisfy { object in
                        isHash(object.hash) && GlobalID(object.id)?.description == object.id
                            && Digest.bucket(of: object.id) == bucket && schema.entity(named: object.entity) != nil
                    }
            })
        else { throw DigestFileError.badPayload }
    }
}

/// Why a digest or detail file is not used.
public enum DigestFileError: Error, Equatable, CustomStringConvertible {
    case tooLarge(Int)
    case notAFile
    case unreadable(String)
    case badPayload

    public var description: String {
        switch self {
        case .tooLarge(let size): "too large (\(size) bytes; at most \(DigestFiles.maxSize))"
        case .notAFile: "not a regular file"
        case .unreadable(let reason): "cannot be read: \(reason)"
        case .badPayload: "its content cannot be read or does not add up"
        }
    }
}

extension CloudLayout {
    public var digestsFolder: URL { epochFolder.appendingPathComponent("digests", isDirectory: true) }

    func digestFolder(peer: String) -> URL { digestsFolder.appendingPathComponent(peer, isDirectory: true) }

    func digestURL(peer: String, number: Int64, extension ext: String) -> URL {
        let digits = String(number)
        return digestFolder(peer: peer)
            .appendingPathComponent(String(repeating: "0", count: max(0, 10 - digits.count)) + digits + "." + ext)
    }

    /// The peers with a folder of digests, sorted (sync engines' temp and conflict copies left out).
    func digestPeers() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: digestsFolder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && !$0.hasPrefix("~") && !$0.contains(".sync-conflict-") }.sorted()
    }

    /// A peer's digest (or detail) file numbers, newest first.
    func digestNumbers(of peer: String, extension ext: String) -> [Int64] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: digestFolder(peer: peer).path)) ?? []
        return names.compactMap { Self.number(inFileNamed: $0, extension: ext) }.sorted(by: >)
    }
}
