import Testing
@testable import HTTP1
@testable import Web

@Suite struct RouterTests {
    static func router() -> Router {
        var r = Router()
        r.get("/v1/rates") { _, _ in .ready(HTTPResponse(body: Array("all".utf8))) }
        r.get("/v1/rates/{code}") { _, p in .ready(HTTPResponse(body: Array("one:\(p["code"]!)".utf8))) }
        r.get("/v1/bpi/currentprice/{code}.json") { _, p in .ready(HTTPResponse(body: Array("bpi:\(p["code"]!)".utf8))) }
        r.get("/v1/books/{isbn}") { _, p in .ready(HTTPResponse(body: Array("book:\(p["isbn"]!)".utf8))) }
        r.get("/v1/books/{isbn}/cover") { _, p in .ready(HTTPResponse(body: Array("cover:\(p["isbn"]!)".utf8))) }
        r.get("/admin/cache") { _, _ in .ready(HTTPResponse(body: Array("stats".utf8))) }
        r.delete("/admin/cache") { _, _ in .ready(HTTPResponse(status: .noContent)) }
        return r
    }

    func body(_ method: String, _ target: String) -> (Int, String, HTTPHeaders) {
        guard case let .ready(resp) = Self.router().respond(to: HTTPRequest(method: method, target: target)) else {
            Issue.record("expected a ready response")
            return (0, "", HTTPHeaders())
        }
        return (resp.status.code, String(decoding: resp.body, as: UTF8.self), resp.headers)
    }

    /// 404 and 405 details quote the path (and method) clipped, so an 8 KiB request line does
    /// not come back as an 8 KiB problem; placeholders decode hostile bytes without trapping.
    @Test func echoedPathAndMethodAreClipped() {
        let long = "/" + String(repeating: "a", count: 6000)
        let (status, text, _) = body("GET", long)
        #expect(status == 404)
        #expect(text.utf8.count < 600, "\(text.utf8.count) bytes")
        let (status405, text405, _) = body(String(repeating: "X", count: 5000), "/admin/cache")
        #expect(status405 == 405)
        #expect(text405.utf8.count < 600, "\(text405.utf8.count) bytes")
        let (okStatus, okText, _) = body("GET", "/v1/books/97%CC%81%C0%AF%FF")
        #expect(okStatus == 200)
        #expect(okText == "book:97\u{301}\u{FFFD}\u{FFFD}\u{FFFD}")
    }

    /// Query names match by bytes: U+212A KELVIN SIGN is canonically equal to "K" as a String.
    @Test func queryNamesMatchByBytes() {
        let request = HTTPRequest(method: "GET", target: "/x?%E2%84%AA=kelvin&K=k&b%CC%81ase=EUR")
        #expect(request.query("K") == "k")
        #expect(request.query("\u{212A}") == "kelvin")
        #expect(request.query("base") == nil)
    }

    @Test func literalAndParameterRoutes() {
        #expect(body("GET", "/v1/rates").1 == "all")
        #expect(body("GET", "/v1/rates/EUR?base=USD").1 == "one:EUR")
        #expect(body("GET", "/v1/books/978-0-306-40615-7/cover").1 == "cover:978-0-306-40615-7")
        #expect(body("GET", "/v1/books/0306406152").1 == "book:0306406152")
    }

    @Test func parameterWithLiteralSuffix() {
        #expect(body("GET", "/v1/bpi/currentprice/GBP.json").1 == "bpi:GBP")
        #expect(body("GET", "/v1/bpi/currentprice/.json").0 == 404, "an empty parameter does not match")
        #expect(body("GET", "/v1/bpi/currentprice/GBP").0 == 404)
    }

    @Test func parametersArePercentDecoded() {
        #expect(body("GET", "/v1/books/978%200306").1 == "book:978 0306")
    }

    @Test func headUsesGetHandler() {
        #expect(body("HEAD", "/v1/rates").1 == "all")
    }

    @Test func unknownPathIs404Problem() {
        let (status, text, headers) = body("GET", "/nope")
        #expect(status == 404)
        #expect(headers["Content-Type"] == "application/problem+json")
        #expect(headers["Cache-Control"] == "no-store")
        #expect(text.contains("\"status\":404"))
        #expect(text.contains("/nope"))
    }

    /// RFC 9110 §9.3.7: `OPTIONS *` is about the server, answered with every method it serves.
    @Test func optionsAsteriskListsTheServersMethods() {
        let (status, text, headers) = body("OPTIONS", "*")
        #expect(status == 204)
        #expect(text.isEmpty)
        #expect(headers["Allow"] == "DELETE, GET, HEAD, OPTIONS")
        var onlyGet = Router()
        onlyGet.get("/healthz") { _, _ in .ready(HTTPResponse()) }
        #expect(onlyGet.allowedMethods == ["GET", "HEAD", "OPTIONS"])
        // OPTIONS on a path is about that path: a 405 where no route answers OPTIONS.
        #expect(body("OPTIONS", "/admin/cache").0 == 405)
    }

    @Test func routesDeclareThemselvesPublic() {
        var r = Router()
        r.get("/v1/rates", public: true) { _, _ in .ready(HTTPResponse()) }
        r.get("/metrics") { _, _ in .ready(HTTPResponse()) }
        #expect(r.routes.map(\.isPublic) == [true, false])
        guard case let .found(route, _, _) = r.match(method: "HEAD", path: "/v1/rates") else {
            Issue.record("no match")
            return
        }
        #expect(route.isPublic)
    }

    @Test func wrongMethodIs405WithAllow() {
        let (status, _, headers) = body("POST", "/admin/cache")
        #expect(status == 405)
        #expect(headers["Allow"] == "DELETE, GET, HEAD")
        #expect(body("PUT", "/v1/rates").2["Allow"] == "GET, HEAD")
    }

    /// The exact-path fast path must agree with full matching: a literal route beats a
    /// placeholder route registered before it, and a literal path whose routes lack the method
    /// still falls through to placeholder routes that have it.
    @Test func literalFastPathAgreesWithFullMatching() {
        var r = Router()
        r.get("/v1/rates/{code}") { _, p in .ready(HTTPResponse(body: Array("one:\(p["code"]!)".utf8))) }
        r.get("/v1/rates/latest") { _, _ in .ready(HTTPResponse(body: Array("latest".utf8))) }
        r.delete("/v1/items/all") { _, _ in .ready(HTTPResponse(body: Array("deleted".utf8))) }
        r.get("/v1/items/{id}") { _, p in .ready(HTTPResponse(body: Array("item:\(p["id"]!)".utf8))) }
        func text(_ method: String, _ path: String) -> String? {
            guard case let .found(_, params, handler) = r.match(method: method, path: path),
                  case let .ready(response) = handler(HTTPRequest(method: method, target: path), params) else { return nil }
            return String(decoding: response.body, as: UTF8.self)
        }
        #expect(text("GET", "/v1/rates/latest") == "latest")
        #expect(text("HEAD", "/v1/rates/latest") == "latest")
        #expect(text("GET", "/v1/rates/EUR") == "one:EUR")
        #expect(text("DELETE", "/v1/items/all") == "deleted")
        #expect(text("GET", "/v1/items/all") == "item:all")
    }

    @Test func trailingSlashIsADifferentPath() {
        #expect(body("GET", "/v1/rates/").0 == 404)
    }

    @Test func routesAreListed() {
        #expect(Self.router().routes.contains(Router.Route(method: "DELETE", pattern: "/admin/cache")))
        #expect(Self.router().routes.count == 7)
    }
}

@Suite struct QueryStringTests {
    @Test func decodesItems() {
        let items = QueryString.decode("base=EUR&symbols=USD%2CGBP&q=a+b&flag&&x=%zz")
        #expect(items == [
            QueryItem(name: "base", value: "EUR"), QueryItem(name: "symbols", value: "USD,GBP"),
            QueryItem(name: "q", value: "a b"), QueryItem(name: "flag", value: ""),
            QueryItem(name: "x", value: "%zz"),
        ])
    }

    @Test func requestSplitsTarget() {
        let r = HTTPRequest(method: "GET", target: "/v1/convert?from=EUR&to=USD&amount=2.5")
        #expect(r.path == "/v1/convert")
        #expect(r.rawQuery == "from=EUR&to=USD&amount=2.5")
        #expect(r.query("amount") == "2.5")
        #expect(r.query("missing") == nil)
    }

    @Test func headersAreCaseInsensitive() {
        var h = HTTPHeaders()
        h.add("Content-Type", "a")
        h.add("X-Two", "1")
        h.add("x-two", "2")
        #expect(h["content-type"] == "a")
        #expect(h.values(for: "X-TWO") == ["1", "2"])
        h.set("X-Two", "3")
        #expect(h.values(for: "x-two") == ["3"])
    }

    @Test func problemJSONEscapes() {
        let p = Problem(status: .badRequest, slug: "invalid-isbn", detail: "bad \"x\"\n",
                        types: ProblemTypes(base: "https://example.org/problems#"))
        let text = String(decoding: p.jsonBytes, as: UTF8.self)
        #expect(text == #"{"type":"https://example.org/problems#invalid-isbn","title":"Bad Request","status":400,"detail":"bad \"x\"\n"}"#)
    }

    /// The server knows no application's documentation: unless one is given, a problem's type is
    /// `about:blank` and its title the reason phrase (RFC 9457 §4.2.1), for the router's 404 too.
    @Test func problemTypesAreTheApplicationsOrAboutBlank() {
        let plain = Problem(status: .forbidden, slug: "cors-preflight-refused", title: "CORS preflight refused",
                            detail: "d", types: .aboutBlank)
        #expect(plain.type == "about:blank" && plain.title == "Forbidden")
        let typed = Problem(status: .forbidden, slug: "cors-preflight-refused", title: "CORS preflight refused",
                            detail: "d", types: ProblemTypes(base: "https://example.org/p#"))
        #expect(typed.type == "https://example.org/p#cors-preflight-refused" && typed.title == "CORS preflight refused")
        let request = HTTPRequest(method: "GET", target: "/nowhere")
        for (router, type) in [(Router(), "about:blank"),
                               (Router(problemTypes: ProblemTypes(base: "https://example.org/p#")), "https://example.org/p#not-found")] {
            guard case let .ready(response) = router.respond(to: request) else { Issue.record("not ready"); continue }
            #expect(String(decoding: response.body, as: UTF8.self).hasPrefix(#"{"type":"\#(type)""#))
        }
    }
}
