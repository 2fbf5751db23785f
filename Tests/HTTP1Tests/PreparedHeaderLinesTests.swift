import Testing
@testable import HTTP1

/// Prepared header lines are written exactly as the same fields written one by one, are checked
/// like any handler field when made, and stay lookups like any other field.
@Suite struct PreparedHeaderLinesTests {
    private let date = Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)
    private let caching: [HTTPHeaders.Field] = [
        .init(name: "ETag", value: "\"abc\""), .init(name: "Cache-Control", value: "public, max-age=47"),
        .init(name: "Age", value: "12"), .init(name: "Content-Type", value: "application/json; charset=utf-8"),
    ]

    private func render(_ response: HTTPResponse) -> [UInt8] {
        var out: [UInt8] = []
        ResponseHead.write(response, version: .http1_1, isHead: false, close: false, requestID: "rid",
                           date: date, serverName: "almanac", into: &out)
        return out
    }

    @Test func aPreparedBlockIsWrittenAsTheSameFieldsWouldBe() throws {
        let prepared = try #require(PreparedHeaderLines(caching))
        var plain = HTTPResponse(headers: HTTPHeaders(fields: caching), body: [1, 2, 3])
        var fast = HTTPResponse(headers: HTTPHeaders(prepared: prepared, reservingCapacity: 2), body: [1, 2, 3])
        #expect(render(fast) == render(plain))
        // Fields added afterwards (CORS) follow the block, as they follow the plain fields.
        plain.headers.add("Access-Control-Allow-Origin", "*")
        fast.headers.add("Access-Control-Allow-Origin", "*")
        #expect(render(fast) == render(plain))
        #expect(fast.headers == plain.headers)
        #expect(ResponseHead.capacity(fast, requestID: "rid", date: date, serverName: "almanac") >= render(fast).count)
    }

    @Test func preparedFieldsAreLookedUpAndRemovedLikeAnyOther() throws {
        let prepared = try #require(PreparedHeaderLines(caching))
        var headers = HTTPHeaders(prepared: prepared)
        headers.add("X-Extra", "1")
        #expect(headers["etag"] == "\"abc\"")
        #expect(headers["x-extra"] == "1")
        #expect(headers.count == 5)
        #expect(headers.fields.map(\.name) == ["ETag", "Cache-Control", "Age", "Content-Type", "X-Extra"])
        headers.set("Age", "13")
        #expect(headers.prepared == nil, "changing a prepared field dissolves the block")
        #expect(headers.fields.map(\.name) == ["ETag", "Cache-Control", "Content-Type", "X-Extra", "Age"])
        #expect(headers["Age"] == "13")
    }

    @Test func fieldsTheWriterWouldRefuseAreNeverPrepared() {
        #expect(PreparedHeaderLines([.init(name: "X-Bad", value: "a\r\nSet-Cookie: x=1")]) == nil)
        #expect(PreparedHeaderLines([.init(name: "Bad Name", value: "v")]) == nil)
        #expect(PreparedHeaderLines([.init(name: "", value: "v")]) == nil)
        #expect(PreparedHeaderLines([.init(name: "Content-Length", value: "5")]) == nil, "a server-owned field")
        #expect(PreparedHeaderLines([.init(name: "x-request-id", value: "forged")]) == nil, "a server-owned field")
        #expect(PreparedHeaderLines([.init(name: "X-Ok", value: "caf\u{E9}")]) != nil, "UTF-8 text is allowed in values")
    }
}
