import DataModelStoreLayout
import Testing

@Suite struct AttributeValueParserTests {
    typealias P = AttributeValueParser

    @Test func defaults() {
        #expect(P.parse("32767", as: .integer16, role: .defaultValue) == .valid(.integer(32767)))
        #expect(P.parse("32768", as: .integer16, role: .defaultValue) == .invalid("is out of range for Integer 16"))
        #expect(P.parse("3.0", as: .integer32, role: .defaultValue) == .valid(.integer(3)))
        #expect(P.parse("3.5", as: .integer32, role: .defaultValue) == .invalid("is not an integer"))
        #expect(
            P.parse("-9223372036854775808", as: .integer64, role: .defaultValue)
                == .valid(.integer(-9_223_372_036_854_775_808)))
        #expect(P.parse("1e3", as: .double, role: .defaultValue) == .valid(.double(1000)))
        #expect(P.parse("inf", as: .float, role: .defaultValue) == .invalid("is not a number"))
        #expect(P.parse("3.14", as: .decimal, role: .defaultValue) == .valid(.decimal("3.14")))
        #expect(P.parse("YES", as: .boolean, role: .defaultValue) == .valid(.boolean(true)))
        #expect(P.parse("false", as: .boolean, role: .defaultValue) == .valid(.boolean(false)))
        #expect(P.parse("maybe", as: .boolean, role: .defaultValue) == .invalid("is not a Boolean (YES or NO)"))
        #expect(P.parse(" anything ", as: .string, role: .defaultValue) == .valid(.string(" anything ")))
        #expect(
            P.parse("https://example.com/a", as: .uri, role: .defaultValue) == .valid(.string("https://example.com/a")))
        #expect(P.parse("not a url", as: .uri, role: .defaultValue) == .invalid("is not a URL"))
        #expect(
            P.parse("e621e1f8-c36c-495a-93fc-0c247a3e6e5f", as: .uuid, role: .defaultValue)
                == .valid(.uuid("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")))
        #expect(P.parse("not-a-uuid", as: .uuid, role: .defaultValue) == .invalid("is not a UUID"))
        #expect(P.parse("123.5", as: .date, role: .defaultValue) == .valid(.date(123.5)))
        #expect(P.parse("today", as: .date, role: .defaultValue) == .invalid("is not a number of seconds"))
        #expect(P.parse("x", as: .objectID, role: .defaultValue) == .valid(nil))
        #expect(P.parse("x", as: .binary, role: .defaultValue) == .valid(nil))
    }

    /// The case: spaces around a number are ignored, the same for every consumer.
    @Test func spacesAroundNumbersAreIgnored() {
        #expect(P.parse(" 5", as: .integer32, role: .defaultValue) == .valid(.integer(5)))
        #expect(P.parse(" 2.5 ", as: .double, role: .defaultValue) == .valid(.double(2.5)))
        #expect(P.parse("\t1\t", as: .boolean, role: .defaultValue) == .valid(.boolean(true)))
        #expect(P.parse(" 10 ", as: .string, role: .maximum) == .valid(.integer(10)))
        #expect(P.seconds(" 60 ") == 60)
    }

    @Test func bounds() {
        #expect(P.parse("10", as: .string, role: .maximum) == .valid(.integer(10)))
        #expect(P.parse("ten", as: .string, role: .minimum) == .invalid("is not a length"))
        #expect(P.parse("-1", as: .binary, role: .minimum) == .invalid("is not a length"))
        #expect(P.parse("2.5", as: .decimal, role: .minimum) == .valid(.double(2.5)))
        #expect(P.parse("YES", as: .boolean, role: .minimum) == .valid(nil))
        #expect(P.parse("5", as: .integer16, role: .maximum).value?.number == 5)
    }
}
