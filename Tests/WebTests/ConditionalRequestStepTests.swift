import HTTP1
import Testing
import Web

/// `ConditionalRequestStep` without sockets: a 200 whose `ETag` the request names becomes a
/// bodiless 304 that keeps every field but the body's own, and nothing else ever does.
@Suite struct ConditionalRequestStepTests {
    static let etag = #""v1-abc""#

    /// A cached-looking 200: caching fields, then the body's, then a route's own.
    static func cached(status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([
            ("Vary", "Accept-Encoding"), ("ETag", etag), ("Cache-Control", "public, max-age=47"), ("Age", "12"),
            ("X-Cache", "HIT"), ("Cache-Status", "almanac; hit; ttl=47"), ("Content-Type", "application/json"),
            ("Content-Encoding", "gzip"), ("X-Content-Type-Options", "nosniff"),
        ]), body: Array("{}".utf8))
    }

    static func serve(_ response: HTTPResponse, ifNoneMatch: String?) async -> HTTPResponse {
        var router = Router()
        router.get("/x", public: true) { _, _ in .ready(response) }
        let responder = PipelineResponder(router: router, steps: ConditionalRequestStep())
        var headers = HTTPHeaders()
        if let ifNoneMatch { headers.set("If-None-Match", ifNoneMatch) }
        switch responder.respond(to: HTTPRequest(method: "GET", target: "/x", headers: headers)) {
        case let .ready(response): return response
        case let .pending(work): return await work()
        }
    }

    @Test func matchingTagIsAnsweredNotModifiedWithTheSameFieldsInOrder() async {
        let r = await Self.serve(Self.cached(), ifNoneMatch: #""other", W/"v1-abc""#)
        #expect(r.status == .notModified)
        #expect(r.body.isEmpty)
        #expect(r.headers.fields.map(\.name) == ["Vary", "ETag", "Cache-Control", "Age", "X-Cache", "Cache-Status",
                                                 "X-Content-Type-Options"])
        #expect(r.headers["ETag"] == Self.etag)
    }

    @Test func starMatchesAnyTag() async {
        #expect(await Self.serve(Self.cached(), ifNoneMatch: " * ").status == .notModified)
    }

    @Test(arguments: [nil, #""v1""#, #""v1-abc"x"#])
    func otherTagsOrNoneLeaveTheAnswerAlone(ifNoneMatch: String?) async {
        let r = await Self.serve(Self.cached(), ifNoneMatch: ifNoneMatch)
        #expect(r.status == .ok)
        #expect(r.body == Array("{}".utf8))
        #expect(r.headers == Self.cached().headers)
    }

    /// RFC 9110 §13.1.2 only applies to a 200 here: a cached 404 with a matching tag stays a 404.
    @Test func nonOKAnswersAreNeverNotModified() async {
        let r = await Self.serve(Self.cached(status: .notFound), ifNoneMatch: Self.etag)
        #expect(r.status == .notFound)
        #expect(r.body == Array("{}".utf8))
        let problem = HTTPResponse(status: .notFound, body: Array("{}".utf8), representation: Self.representation(Self.etag))
        #expect(await Self.serve(problem, ifNoneMatch: Self.etag).status == .notFound)
    }

    static func representation(_ etag: String) -> Representation {
        Representation(etag: etag, contentType: "application/json",
                       freshness: .init(outcome: .hit, ageSeconds: 1, freshnessLeftSeconds: 59))
    }

    /// A representation whose fields are not written yet is matched on its own tag (the one a
    /// coding step chose), which wins over a stale `ETag` field.
    @Test func representationTagIsTheOneCompared() async {
        var headers = HTTPHeaders()
        headers.add("ETag", #""stale""#)
        let coded = HTTPResponse(status: .ok, headers: headers, body: [1], representation: Self.representation(#""v1-gzip""#))
        let r = await Self.serve(coded, ifNoneMatch: #""v1-gzip""#)
        #expect(r.status == .notModified)
        #expect(r.body.isEmpty)
        #expect(r.representation?.etag == #""v1-gzip""#)
        #expect(await Self.serve(coded, ifNoneMatch: #""stale""#).status == .ok)
    }

    @Test func answerWithoutETagIsLeftAlone() async {
        let r = await Self.serve(HTTPResponse(status: .ok, body: [1]), ifNoneMatch: "*")
        #expect(r.status == .ok)
        #expect(r.body == [1])
    }
}
