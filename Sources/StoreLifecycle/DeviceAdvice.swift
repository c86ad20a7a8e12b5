/// What some of the device layer's notices and reasons end with: the command that puts them
/// right, worded by the program that runs the device. The device layer says what happened and
/// names no command; the command line fills this in with its own (`GroceryDudeCLI`'s
/// `ErrorAdvice.device`). `nil` leaves the advice out.
public struct DeviceAdvice: Sendable {
    /// After "data differs from … although the same logs were applied".
    public var divergence: String?
    /// After "a peer started over: the unfinished store of epoch … is kept at …".
    public var keptStore: String?
    /// After "the cloud folder … is not the one this device synced with …".
    public var foreignFolder: String?

    public init(divergence: String? = nil, keptStore: String? = nil, foreignFolder: String? = nil) {
        self.divergence = divergence
        self.keptStore = keptStore
        self.foreignFolder = foreignFolder
    }
}
