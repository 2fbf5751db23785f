import Cache
import Gzip
import HTTP1
import Testing
import Web
@testable import Almanac

/// The caching steps of the app's pipeline one by one, through the pipeline itself: the gzip
/// twin is chosen first (`ContentCodingStep`), the 304 is decided on the chosen tag
/// (`ConditionalRequestStep`), the caching fields are written in a fixed order before the
/// route's own (`CachingHeadersStep`), and CORS comes after all of them.
@Suite struct CachingStepsTests {
    /// Big enough for a gzip twin (`GzipVariants.minimumBytes`), unique to this suite so its
    /// tag's twin is this suite's.
    static let largeBody = Array(("{\"steps\":[" + String(repeating: "1.5,", count: 400) + "0]}").utf8)
    static let etag = #""steps-large""#
    static let hit = CacheFreshness(outcome: .hit, ageSeconds: 2, freshnessLeftSeconds: 58)
    static let gzip: HTTPHeaders = ["Accept-Encoding": "gzip"]

    static func names(_ response: HTTPResponse) -> [String] { response.headers.fields.map(\.name) }

    static func large(_ headers: HTTPHeaders = HTTPHeaders(), own: HTTPHeaders = HTTPHeaders(), public: Bool = false,
                      freshness: CacheFreshness = hit, status: HTTPStatus = .ok,
                      contentType: String = "application/json; charset=utf-8") async -> HTTPResponse {
        await serveRepresentation(largeBody, contentType: contentType, etag: etag, freshness: freshness, status: status,
                                  own: own, public: `public`, headers: headers)
    }

    /// Caching fields in today's order (`Vary` first, the body's own fields last), then the
    /// route's, then CORS; the same order plain and from the prepared block.
    @Test func fieldsComeInAFixedOrderThenTheRoutesThenCORS() async {
        let plain = await Self.large(Self.gzip, own: ["X-Content-Type-Options": "nosniff"], public: true,
                                     freshness: .init(outcome: .miss, ageSeconds: 0, freshnessLeftSeconds: 60))
        #expect(Self.names(plain) == ["Vary", "ETag", "Cache-Control", "Age", "X-Cache", "Cache-Status", "Content-Type",
                                      "Content-Encoding", "X-Content-Type-Options",
                                      "Access-Control-Allow-Origin", "Access-Control-Expose-Headers"])
        #expect(plain.headers["Vary"] == "Accept-Encoding")
        #expect(plain.headers["Content-Encoding"] == "gzip")
        // A fresh hit, twice: the second carries the prepared block, in the same order.
        let first = await Self.large(Self.gzip, own: ["X-Content-Type-Options": "nosniff"], public: true)
        var repeated = first
        for _ in 0..<5 where repeated.headers.prepared == nil {
            repeated = await Self.large(Self.gzip, own: ["X-Content-Type-Options": "nosniff"], public: true)
        }
        #expect(repeated.headers.prepared != nil, "a repeated hit is served from the prepared block")
        #expect(Self.names(repeated) == Self.names(plain))
        #expect(repeated.headers == first.headers)
        #expect(repeated.headers.prepared?.fields.map(\.name)
                == ["Vary", "ETag", "Cache-Control", "Age", "X-Cache", "Cache-Status", "Content-Type", "Content-Encoding"])
    }

    /// The gzip twin has its own strong tag, and `If-None-Match` is compared with the tag of the
    /// coding actually chosen: the twin's tag gets a 304 from a gzip client, the identity's does not.
    @Test func notModifiedIsDecidedOnTheChosenCodingsTag() async throws {
        let coded = await Self.large(Self.gzip)
        let twinTag = try #require(coded.headers["ETag"])
        #expect(twinTag != Self.etag && twinTag.hasSuffix("-gzip\""))
        #expect(try Gzip.decompress(coded.body, limit: Self.largeBody.count) == Self.largeBody)

        var revalidate = Self.gzip
        revalidate.add("If-None-Match", twinTag)
        let notModified = await Self.large(revalidate)
        #expect(notModified.status == .notModified)
        #expect(notModified.body.isEmpty)
        #expect(notModified.headers["ETag"] == twinTag)
        #expect(Self.names(notModified) == ["Vary", "ETag", "Cache-Control", "Age", "X-Cache", "Cache-Status"])

        var identityTag = Self.gzip
        identityTag.add("If-None-Match", Self.etag)
        let stillCoded = await Self.large(identityTag)
        #expect(stillCoded.status == .ok)
        #expect(stillCoded.headers["Content-Encoding"] == "gzip")
        // Without gzip, the identity's tag is the one that matches.
        #expect(await Self.large(["If-None-Match": Self.etag]).status == .notModified)
        #expect(await Self.large(["If-None-Match": twinTag]).status == .ok)
    }

    /// A cached 404 (a problem) whose tag the client names stays a 404 with its body and fields.
    @Test func aCached404IsNeverNotModified() async {
        var headers = Self.gzip
        headers.add("If-None-Match", "*")
        let r = await Self.large(headers, status: .notFound, contentType: "application/problem+json")
        #expect(r.status == .notFound)
        #expect(!r.body.isEmpty)
        #expect(r.headers["Content-Type"] == "application/problem+json")
        #expect(r.headers["ETag"] != nil && r.headers["Cache-Status"] != nil)
    }

    /// A route's own `Vary` (the volumes route's forwarded headers) replaces `Accept-Encoding`'s
    /// and follows the caching fields, plain and prepared alike.
    @Test func aRoutesOwnVaryIsKept() async {
        let own: HTTPHeaders = ["Vary": "Forwarded, X-Forwarded-Proto, X-Forwarded-Host"]
        let freshness = CacheFreshness(outcome: .hit, ageSeconds: 7, freshnessLeftSeconds: 33)
        for _ in 0..<3 {
            let r = await Self.large(Self.gzip, own: own, freshness: freshness)
            #expect(r.headers.values(for: "Vary") == ["Forwarded, X-Forwarded-Proto, X-Forwarded-Host"])
            #expect(Self.names(r) == ["ETag", "Cache-Control", "Age", "X-Cache", "Cache-Status", "Content-Type",
                                      "Content-Encoding", "Vary"])
        }
    }

    /// Small bodies and images have no twin: no `Vary`, no coding, whatever the client accepts.
    @Test func bodiesWithoutATwinAreSentAsTheyAre() async {
        let small = await serveRepresentation(Array("{}".utf8), freshness: Self.hit, headers: Self.gzip)
        #expect(small.headers["Vary"] == nil && small.headers["Content-Encoding"] == nil)
        let image = await Self.large(Self.gzip, contentType: "image/jpeg")
        #expect(image.headers["Vary"] == nil && image.headers["Content-Encoding"] == nil)
        #expect(image.body == Self.largeBody)
    }

    /// Answers without a representation (health, problems) pass the caching steps untouched.
    @Test func answersWithoutARepresentationAreLeftAlone() async {
        var router = Router()
        router.get("/plain") { _, _ in
            .ready(HTTPResponse(status: .ok, headers: ["ETag": #""p""#, "Cache-Control": "no-store"], body: Self.largeBody))
        }
        let r = await respond(router, "GET", "/plain", headers: Self.gzip)
        #expect(r.headers.fields.map(\.name) == ["ETag", "Cache-Control"])
        #expect(r.body == Self.largeBody)
    }
}
