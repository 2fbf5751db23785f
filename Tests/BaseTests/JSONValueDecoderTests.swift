import Base
import Testing

@Suite struct JSONValueDecoderTests {
    struct Shape: Decodable, Equatable {
        var name: String
        var count: Int?
        var ratio: Double?
        var flags: [Bool]?
        var nested: [String: Int]?
    }

    func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONValueDecoder().decode(type, from: try JSONParser.parse(Array(text.utf8)))
    }

    @Test func decodesStructsArraysAndDictionaries() throws {
        let shape = try decode(Shape.self, #"{"name":"n","count":-3,"ratio":0.5e1,"flags":[true,false],"nested":{"k":7},"extra":null}"#)
        #expect(shape == Shape(name: "n", count: -3, ratio: 5, flags: [true, false], nested: ["k": 7]))
    }

    @Test func absentAndNullOptionalsAreNil() throws {
        #expect(try decode(Shape.self, #"{"name":"n","count":null}"#) == Shape(name: "n"))
    }

    @Test func integersAreIntegerLiteralsWithinRange() {
        for text in [#"{"name":"n","count":1.0}"#, #"{"name":"n","count":1e2}"#, #"{"name":"n","count":99999999999999999999}"#] {
            #expect(throws: DecodingError.self, "\(text)") { try decode(Shape.self, text) }
        }
    }

    @Test func noConversionsBetweenTypes() {
        for text in [#"{"name":1}"#, #"{"name":"n","count":"1"}"#, #"{"name":"n","flags":[1]}"#, #"{"name":"n","ratio":true}"#, #"{}"#, #"[]"#] {
            #expect(throws: DecodingError.self, "\(text)") { try decode(Shape.self, text) }
        }
    }

    @Test func errorsCarryTheCodingPath() {
        do {
            _ = try decode([Shape].self, #"[{"name":"a"},{"name":"b","flags":[true,"x"]}]"#)
            Issue.record("expected an error")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["1", "flags", "1"])
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
