import Testing
@testable import HTTP1

/// The fields the pipeline reads on every request (`TrackedRequestField`) are noted by the parser
/// as they go by: asking for one answers exactly what a lookup by name answers, and a request
/// that did not send it reads no field.
@Suite struct TrackedRequestFieldTests {
    static func parse(_ fields: String) throws -> HTTPRequest {
        try #require(ServerReadFieldsTests.parse("GET / HTTP/1.1\nHost: a\n\(fields)\n"))
    }

    @Test func aTrackedFieldIsFoundInAnySpellingAndMatchesTheLookupByName() throws {
        let request = try Self.parse("if-NONE-match: \"a\"\nACCEPT-ENCODING: gzip\naccept-encoding: br\nOrigin: https://x.example\n")
        for field in TrackedRequestField.allCases {
            #expect(request.values(of: field) == request.headers.values(for: field.name), "\(field)")
            #expect(request.value(of: field) == request.headers[field.name], "\(field)")
        }
        #expect(request.values(of: .acceptEncoding) == ["gzip", "br"])
        #expect(request.value(of: .ifNoneMatch) == "\"a\"")
    }

    @Test func aFieldNotSentIsNotReadAndNamesOfTheSameLengthDoNotCount() throws {
        // Same lengths as the tracked names: Authorization (13), Accept-Language (15), Expect (6).
        let request = try Self.parse("Authorization: x\nAccept-Language: en\nExpect: 100-continue\n")
        #expect(request.serverReadFields.isDisjoint(with: [.ifNoneMatch, .acceptEncoding, .origin]))
        for field in TrackedRequestField.allCases { #expect(request.value(of: field) == nil) }
    }

    @Test func changedOrHandMadeFieldsAreLookedUp() throws {
        var request = try Self.parse("")
        #expect(request.value(of: .ifNoneMatch) == nil)
        request.headers.add("If-None-Match", "\"b\"")
        #expect(request.value(of: .ifNoneMatch) == "\"b\"", "fields changed after parsing are read again")
        let handMade = HTTPRequest(method: "GET", target: "/", headers: ["Origin": "https://y.example"])
        #expect(handMade.value(of: .origin) == "https://y.example")
    }
}
