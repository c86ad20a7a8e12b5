import StoreLifecycle

extension AppModel {
    /// The full-screen app's crash point, after its first frame, when the fault tests ask for
    /// it (`nil` otherwise): the terminal's loop traps there, so that the program's own crash
    /// handler runs. Read through the app model so the terminal layer needs no store layer.
    public static var requestedAppTrap: String? { DeviceProcess.requestedAppTrap }
}
