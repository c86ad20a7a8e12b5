import Foundation
import GroceryModel
import Ubiquity

/// Who uses a device: the person its logs name, so that the people of a household sharing one
/// list see whose change it was. Set with `person set` (kept in the device's settings); a
/// command may name another (`GROCERY_DUDE_PERSON`); without either, the device's name — never
/// the login's full name, which would be published without asking.
public struct DevicePerson: Equatable, Sendable {
    public enum Source: Equatable, Sendable {
        /// `person set`.
        case set
        /// `GROCERY_DUDE_PERSON`, for this command.
        case environment
        /// The device's name, as nothing else says.
        case deviceName
    }

    public let name: String
    public let source: Source

    /// Checks a person's name by an item name's rules (something visible, no control
    /// characters, at most 200 characters), trimmed.
    ///
    /// - Throws: ``GroceryError/invalidName(field:reason:)``.
    public static func checked(_ raw: String) throws -> String {
        try Validation.name(raw, field: "person")
    }

    /// Sets the device's person (kept in its settings; later logs name it).
    @discardableResult
    public static func set(_ raw: String, on sandbox: DeviceSandbox) throws -> DevicePerson {
        let name = try checked(raw)
        var settings = try DeviceSettings.load(from: sandbox)
        settings.person = name
        try settings.save(to: sandbox)
        return DevicePerson(name: name, source: .set)
    }
}

extension StoreConfiguration {
    /// The person this process's logs name: the command's override, the device's, or its name.
    /// An override or a setting that breaks the rules (a hand-edited file) names the device
    /// instead: a log is never refused for it.
    public func person() -> DevicePerson {
        if let override = personOverride, let name = try? DevicePerson.checked(override) {
            return DevicePerson(name: name, source: .environment)
        }
        if let set = (try? DeviceSettings.load(from: sandbox))?.person, let name = try? DevicePerson.checked(set) {
            return DevicePerson(name: name, source: .set)
        }
        return DevicePerson(name: sandbox.device, source: .deviceName)
    }
}
