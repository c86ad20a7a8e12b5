import Foundation
import GroceryModel
import StoreLifecycle
import TextAndFiles

/// Which shop Shop and Aisles show (model version 3): one at a time, switched with `s` / `S`,
/// remembered by the device for each list (``GroceryStore/shownShop()``).
extension AppModel {
    /// The shop shown, with its name, when the list has more than one: the screens name it then
    /// (a list with only the default shop looks as it did before shops).
    public var shownShop: ShopEntry? {
        guard shopCount > 1 else { return nil }
        return shopNamed
    }

    /// Switches Shop and Aisles to the next (`1`) or previous (`-1`) shop, and remembers it.
    public func switchShop(by delta: Int) {
        guard isInputEnabled, editor == nil else { return }
        let store = coordinator.current.store
        guard store.modelVersion >= 3 else {
            say("Shops came with model version 3; this list's store is at version \(store.modelVersion)")
            return
        }
        do {
            let shops = try store.shops()
            guard shops.count > 1 else {
                say("\(shops.first?.name ?? GrocerySchema.defaultShopName) is the only shop: N adds one")
                return
            }
            let index = shops.firstIndex { $0.id == shop.shop } ?? 0
            let next = shops[((index + delta) % shops.count + shops.count) % shops.count]
            try store.setShownShop(next.id)
            show(shop: next.id)
            say("Shop: \(next.name) (\(next.aisleCount) aisle\(next.aisleCount == 1 ? "" : "s"))")
        } catch {
            say("Cannot switch shop: \(ErrorText.reason(error))")
        }
    }

    /// Adds a shop and shows it.
    ///
    /// - Throws: why the name is refused (in use, too long): the caller keeps what was typed.
    public func addShop(named name: String) throws {
        guard isInputEnabled else { return }
        let added = try coordinator.current.store.addShop(name: name)
        try coordinator.current.store.setShownShop(added.id)
        show(shop: added.id)
        say("Added the shop \(added.name): a adds its aisles, J K order them")
    }

    /// Shows `id` on Shop and Aisles.
    func show(shop id: ShopID) {
        shop.shop = id
        shopAisles.shop = id
        refreshShops()
    }

    /// After the store opens or changes: the shop this device shows for the list (the default
    /// one when it is gone), and the shops' count and name the screens show.
    func restoreShownShop() {
        show(shop: (try? coordinator.current.store.shownShop()) ?? .defaultShop)
    }

    /// Reads the shops' count and the shown shop's name again (a rename or a new shop elsewhere).
    func refreshShops() {
        let store = coordinator.current.store
        guard store.modelVersion >= 3, let shops = try? store.shops() else {
            shopCount = 1
            shopNamed = nil
            shop.shopName = nil
            shopAisles.shopName = nil
            return
        }
        shopCount = shops.count
        shopNamed = shops.first { $0.id == shop.shop } ?? shops.first
        if shopNamed?.id != shop.shop { return show(shop: .defaultShop) }
        shop.shopName = shownShop?.name
        shopAisles.shopName = shownShop?.name
    }
}
