import Foundation
import GroceryResources

/// The groceries a new device starts with, shipped in `Resources/DefaultData.json` (the
/// project's own JSON format) and embedded in the binary.
public enum DefaultData {
    public static func archive() throws -> GroceryArchive {
        try JSONArchiveCoder.decode(Data(GroceryResources.defaultDataJSON))
    }
}
