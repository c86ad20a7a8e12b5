/// The readings text of the last new object an import merged, made again only when the next one
/// was written with other properties or at another reading.
///
/// Every change of a log carries the transaction's reading, and a log's objects are mostly of
/// one entity given the same properties: their readings text is the same, object after object.
/// Sorting the names and writing the text again for each (``PropertyClocks/encode(_:at:)``) was
/// a fortieth of an import. The text given is always what `encode(names, at: clock)` gives.
final class InsertReadings {
    private var clock: HLC?
    /// The names the text covers, sorted.
    private var names: [String] = []
    private var text = ""

    /// ``PropertyClocks/encode(_:at:)`` of `names`, which name each property once (a change's
    /// values are a dictionary: its keys, in whatever order it holds them).
    func text(of names: some Collection<String>, at clock: HLC) -> String {
        // The same names in any order: as many, each one of the last (which are distinct).
        if clock == self.clock, names.count == self.names.count, names.allSatisfy(self.names.contains) {
            return text
        }
        self.clock = clock
        self.names = names.sorted()
        text = PropertyClocks.encode(self.names, at: clock)
        return text
    }
}
