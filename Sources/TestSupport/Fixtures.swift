import Foundation

/// Where the test data lives.
public enum Fixtures {
    /// The package's root folder.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/data/original-grocery-dude` beside the package, or `nil` where it is absent
    /// (a user's fresh clone): tests of the real files skip then.
    public static var originalGroceryDude: URL? {
        let url = packageRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/data/original-grocery-dude", isDirectory: true)
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("DefaultData.xml").path) ? url : nil
    }
}
