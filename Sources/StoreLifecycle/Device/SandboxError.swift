import Foundation

/// What a device sandbox refuses.
public enum SandboxError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case invalidDeviceName(String, reason: String)
    case deviceInUse(device: String, pid: Int32, command: String)

    public var description: String {
        switch self {
        case .invalidDeviceName(let name, let reason): "invalid device name \(name.debugDescription): \(reason)"
        case .deviceInUse(let device, let pid, let command):
            "device \(device.debugDescription) is open in another process (pid \(pid), \(command)); quit it first or use another --device"
        }
    }

    public var errorDescription: String? { description }
}
