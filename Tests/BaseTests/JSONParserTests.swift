import Testing
@testable import Base

@Suite struct JSONParserTests {
    func parse(_ text: String) throws(JSONParser.Error) -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test func numbersKeepTheirLiteralText() throws {
        let value = try parse(#"{"a":84000.123456789012345678,"b":-0.5e-3,"c":[1,2.0]}"#)
        #expect(value["a"] == .number("84000.123456789012345678"))
        #expect(value["b"] == .number("-0.5e-3"))
        #expect(value["c"] == .array([.number("1"), .number("2.0")]))
    }

    @Test func stringsDecodeEscapesAndSurrogates() throws {
        let value = try parse(#"["a\"b\\c\/\n\u20AC\ud83d\ude00"]"#)
        #expect(value == .array([.string("a\"b\\c/\n€😀")]))
    }

    @Test func literalsAndEmptyContainers() throws {
        #expect(try parse(" [true,false,null,{},[]] ") == .array([.bool(true), .bool(false), .null, .object([:]), .array([])]))
    }

    @Test(arguments: ["", "{", "[1,]", "{\"a\"}", "01", "1.", "-", "nul", "\"abc", "[1] x", "{\"a\":1,}", "\"\u{01}\"", "<html>", "NaN"])
    func rejectsMalformedInput(_ text: String) {
        #expect(throws: JSONParser.Error.self) { try parse(text) }
    }

    @Test func nestingIsCapped() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParser.Error.self) { try parse(deep) }
        let ok = String(repeating: "[", count: 60) + String(repeating: "]", count: 60)
        #expect((try? parse(ok)) != nil)
    }

    @Test func errorsCarryTheOffset() {
        do {
            _ = try parse("[1, x]")
            Issue.record("expected an error")
        } catch {
            #expect(error.offset == 4)
            #expect(error.description == "unexpected character at byte 4")
        }
    }

    @Test func aNameWrittenTwiceInOneObjectIsMalformed() throws {
        #expect(throws: JSONParser.Error(offset: 7, reason: "duplicate member name")) { try parse(#"{"a":1,"a":1}"#) }
        #expect(throws: JSONParser.Error(offset: 13, reason: "duplicate member name")) { try parse(#"[{"x":{"b":1,"b":{}}}]"#) }
        // The same name in two different objects is not a duplicate.
        #expect(try parse(#"[{"a":1},{"a":2,"b":{"a":3}}]"#) == .array([.object(["a": .number("1")]),
                                                                       .object(["a": .number("2"), "b": .object(["a": .number("3")])])]))
    }
}
