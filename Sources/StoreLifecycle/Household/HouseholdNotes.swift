import Foundation
import GroceryModel
import Ubiquity

/// The JSON line of a claim file (`<n>.gdclaim`): someone said "I'll get it" (`claim`), or took
/// a claim back (`release`, theirs or anyone's). Ordered by `reading`, the writing device's
/// clock reading when it was made.
struct ClaimNote: HouseholdNote {
    var account: String
    var store: String
    var peer: String
    var device: String
    var person: String
    /// The item's global ID.
    var item: String
    /// The item's name when it was claimed, for messages.
    var itemName: String
    var reading: String
    /// "claim" or "release".
    var kind: String
    /// The writer's time, for people; it decides nothing.
    var written: String
}

/// The JSON line of a presence file (`<n>.gdpresence`): a device's person is shopping (at `shop`,
/// or in no shop in particular) or stopped.
struct PresenceNote: HouseholdNote {
    var account: String
    var store: String
    var peer: String
    var device: String
    var person: String
    var shop: String?
    /// "shopping" or "stopped".
    var kind: String
    /// When the writer says the shopping began; shown, it decides nothing.
    var since: String
    /// Written by a process that writes a new file every minute while it runs (the app with Shop
    /// open, `cloud watch`): it lives a short time. Otherwise by `shopping start`: a long one.
    var refreshed: Bool
    var written: String
}

/// What every household file's JSON line says, whatever its kind: whose it is.
protocol HouseholdNote: Codable, Equatable {
    var account: String { get }
    var store: String { get }
    var peer: String { get }
    var device: String { get }
    var person: String { get }
}

/// The checks every household file's JSON line passes, whatever its kind: it names this account,
/// this store and the peer whose folder holds it, a device and a person by the rules of names.
enum HouseholdNoteCheck {
    /// The file's JSON line as a note of `type`, when it is one and says whose it is rightly.
    static func checked<Note: HouseholdNote>(_ type: Note.Type, _ file: HouseholdFile, folder: HouseholdFolder)
        -> Result<Note, RuleViolation>
    {
        let note: Note
        switch file.body {
        case .failure(let violation): return .failure(violation)
        case .success(let data):
            guard let decoded = try? JSONDecoder().decode(Note.self, from: data) else {
                return .failure(RuleViolation("it is not a \(file.kind.fileKind) file"))
            }
            note = decoded
        }
        if note.account != folder.account {
            return .failure(RuleViolation("it says account \(note.account.debugDescription), not this folder's"))
        }
        if note.store != folder.storeName {
            return .failure(RuleViolation("it says list \(note.store.debugDescription), not this folder's"))
        }
        if note.peer != file.peer {
            return .failure(RuleViolation("it says peer \(note.peer), its folder \(file.peer)"))
        }
        let device = note.device
        if device.isEmpty || device.utf8.count > 256 || (try? Validation.name(device, field: "device")) == nil {
            return .failure(RuleViolation("its device cannot be right"))
        }
        if (try? DevicePerson.checked(note.person)) != note.person {
            return .failure(RuleViolation("its person cannot be right"))
        }
        return .success(note)
    }

    static func encode<T: Encodable>(_ note: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(note)
    }

    static func time(_ date: Date) -> String { Timestamp.string(date) }
}
