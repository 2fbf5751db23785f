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

    @Test func aPreparedTailFollowsTheOwnFieldsAndStaysInCallOrder() throws {
        let head = try #require(PreparedHeaderLines(caching))
        let tail = try #require(PreparedHeaderLines([.init(name: "Access-Control-Allow-Origin", value: "*"),
                                                     .init(name: "Access-Control-Expose-Headers", value: "ETag")]))
        var plain = HTTPResponse(headers: HTTPHeaders(fields: caching), body: [1, 2, 3])
        var fast = HTTPResponse(headers: HTTPHeaders(prepared: head), body: [1, 2, 3])
        plain.headers.add("X-Own", "1")
        fast.headers.add("X-Own", "1")
        for field in tail.fields { plain.headers.add(field.name, field.value) }
        fast.headers.append(prepared: tail)
        #expect(fast.headers.preparedTail === tail)
        #expect(render(fast) == render(plain))
        #expect(fast.headers == plain.headers)
        #expect(fast.headers["access-control-allow-origin"] == "*")
        #expect(fast.headers.count == plain.headers.count)
        #expect(ResponseHead.capacity(fast, requestID: "rid", date: date, serverName: "almanac") >= render(fast).count)
        // A field added after the tail comes after it on the wire: the tail becomes own fields.
        plain.headers.add("X-Later", "2")
        fast.headers.add("X-Later", "2")
        #expect(fast.headers.preparedTail == nil)
        #expect(render(fast) == render(plain))
        // A second tail while one is held follows it, in order.
        var twice = HTTPHeaders()
        twice.append(prepared: tail)
        twice.append(prepared: head)
        #expect(twice.fields.map(\.name) == tail.fields.map(\.name) + head.fields.map(\.name))
        // Removing a tail field removes just it.
        var removed = HTTPHeaders(prepared: head)
        removed.append(prepared: tail)
        removed.remove("Access-Control-Expose-Headers")
        #expect(removed.fields.map(\.name) == head.fields.map(\.name) + ["Access-Control-Allow-Origin"])
    }

    @Test func theOKPrefixWritesWhatTheStatusLineDateAndServerWould() throws {
        let prefix = ResponseHead.okPrefix(date: date, serverName: "almanac")
        func head(_ response: HTTPResponse, version: HTTPVersion, prefix: [UInt8]) -> [UInt8] {
            let capacity = ResponseHead.capacity(response, requestID: "rid", date: date, serverName: "almanac")
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
            defer { buffer.deallocate() }
            let written = ResponseHead.write(response, version: version, isHead: false, close: false, requestID: "rid",
                                             date: date, serverName: "almanac", okPrefix: prefix, into: buffer)
            return Array(buffer[..<written.count])
        }
        for status in [HTTPStatus.ok, HTTPStatus(code: 200, reasonPhrase: "Fine"), .notFound, .notModified] {
            for version in [HTTPVersion.http1_1, .http1_0] {
                let response = HTTPResponse(status: status, headers: ["X-A": "1"], body: [1])
                #expect(head(response, version: version, prefix: prefix) == head(response, version: version, prefix: []),
                        "\(status.code) \(status.reasonPhrase) \(version)")
            }
        }
        #expect(String(decoding: prefix, as: UTF8.self) == "HTTP/1.1 200 OK\r\nDate: Sun, 06 Nov 1994 08:49:37 GMT\r\nServer: almanac")
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
