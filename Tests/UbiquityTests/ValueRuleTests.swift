import Testing

@testable import Ubiquity

@Suite("What a value rule refuses in text")
struct ValueRuleTextTests {
    let name = ValueRule.name(maximumLength: 5)

    @Test func printableASCIIIsJudgedAsEveryOtherText() {
        // Printable ASCII takes a shorter way; the answers are those of the general one.
        #expect(name.violation(of: .string("")) == "it is blank")
        #expect(name.violation(of: .string("   ")) == "it is blank")
        #expect(name.violation(of: .string(" \u{00A0} ")) == "it is blank", "a no-break space is whitespace too")
        #expect(name.violation(of: .string("\u{200B}")) == "it holds only invisible characters")
        #expect(name.violation(of: .string("Milk")) == nil)
        #expect(name.violation(of: .string(" Milk")) == nil)
        #expect(name.violation(of: .string("Bread")) == nil, "at the limit")
        #expect(name.violation(of: .string("Breads")) == "it is 6 characters long; the limit is 5")
        #expect(name.violation(of: .string("Crème")) == nil, "five characters, six bytes")
        #expect(name.violation(of: .string("Crèmes")) == "it is 6 characters long; the limit is 5")
        #expect(name.violation(of: .string("Mi\u{7}k")) == "\"Mi\\u{07}k\" contains a control character (U+7)")
        #expect(name.violation(of: .string("Mi\u{7F}k"))?.contains("control character (U+7F)") == true)
        #expect(name.violation(of: .string("Mi\u{2028}")) != nil, "a line separator")
        #expect(
            ValueRule(maximumLength: 3).violation(of: .string("   ")) == nil, "blank is allowed where not asked for")
    }
}
