import Ubiquity

/// An item's identity: what screens keep to find an item again (the selected row, the item an
/// editor edits, the items an undo restores). The engine's identity of the item's object, under
/// the model's name for it, so that the screens above the model speak of items, not of the
/// engine's objects.
public typealias ItemID = GlobalID
