import GroceryDudeCLI

/// The executable: everything lives in the libraries.
@main
enum GroceryDude {
    static func main() {
        GroceryDudeCommand.runClosingStores()
    }
}
