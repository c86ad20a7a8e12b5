/// "1 item", "2 items": a count with its noun, singular or plural as the count says.
///
/// - Parameter plural: the plural when it is not the noun plus "s" ("shop aisles" is).
public func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
