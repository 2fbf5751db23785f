import Foundation
import HTTPClientTestSupport
import HTTP1
import Rates
import TestSupport
import Testing
@testable import Almanac

extension FullStackTests {
    /// What a browser, an operator and a newcomer meet, through the real app on a socket:
    /// CORS on public routes only, preflights, `OPTIONS *`, `GET /`, `Retry-After` on 503.
    @Suite struct Browsers {
        static let origin = "https://widget.example"
        static let exposed = "ETag, Age, X-Cache, Cache-Status, X-Request-ID"

        /// A browser-style read from a page on another origin: every public route answers
        /// with `Access-Control-Allow-Origin: *` (errors and 304s included), HEAD too.
        @Test func publicRoutesAllowAnyOrigin() async throws {
            try await FullStack.run { s in
                let targets = ["/v1/rates", "/v1/rates/EUR?base=USD", "/v1/convert?from=EUR&to=USD", "/v1/currencies",
                               "/v1/bpi/currentprice.json", "/v1/bpi/currentprice/XBT.json", "/v1/bpi/supported-currencies.json",
                               "/v1/books/\(F.isbn13)", "/v1/books?isbn=\(F.isbn13)", "/v1/books/\(F.isbn13)/cover",
                               "/books/v1/volumes?q=isbn:\(F.isbn13)", "/openapi.json", "/",
                               "/v1/rates/XYZ", "/v1/books/123"]
                for target in targets {
                    let r = try await s.get(target, headers: ["Origin: \(Self.origin)"])
                    #expect(r.header("Access-Control-Allow-Origin") == "*", "\(target) \(r.status)")
                    #expect(r.header("Access-Control-Expose-Headers") == Self.exposed, "\(target)")
                    #expect(r.header("Vary")?.contains("Origin") != true, "\(target): the same answer for every origin")
                    #expect(r.header("Access-Control-Allow-Credentials") == nil)
                }
                // Without an Origin too (a shared cache may hand the answer to a browser).
                let plain = try await s.get("/v1/rates")
                #expect(plain.header("Access-Control-Allow-Origin") == "*")
                #expect(plain.header("X-Cache") == "HIT")
                // A conditional read by a script (If-None-Match is exposed and allowed).
                let etag = try #require(plain.header("ETag"))
                let notModified = try await s.get("/v1/rates", headers: ["Origin: \(Self.origin)", "If-None-Match: \(etag)"])
                #expect(notModified.status == 304)
                #expect(notModified.header("Access-Control-Allow-Origin") == "*")
                let head = try await s.get("/v1/bpi/currentprice.json", method: "HEAD", headers: ["Origin: \(Self.origin)"])
                #expect(head.status == 200)
                #expect(head.header("Access-Control-Allow-Origin") == "*")
            }
        }

        @Test func operationsAndAdminNeverCarryCORS() async throws {
            try await FullStack.run { s in
                let auth = "Authorization: Bearer \(FullStack.adminToken)"
                for (target, headers) in [("/healthz", [String]()), ("/readyz", []), ("/metrics", []),
                                          ("/admin/cache", [auth]), ("/admin/cache", []), ("/nope", [])] {
                    let r = try await s.get(target, headers: ["Origin: \(Self.origin)"] + headers)
                    #expect(r.header("Access-Control-Allow-Origin") == nil, "\(target) \(r.status)")
                    #expect(r.header("Access-Control-Expose-Headers") == nil, "\(target)")
                }
                // A preflight for the admin API is not answered as one.
                let preflight = try await s.get("/admin/cache", method: "OPTIONS", headers: [
                    "Origin: \(Self.origin)", "Access-Control-Request-Method: DELETE", "Access-Control-Request-Headers: authorization"])
                #expect(preflight.status == 405)
                #expect(preflight.header("Access-Control-Allow-Origin") == nil)
                #expect(preflight.header("Access-Control-Allow-Methods") == nil)
            }
        }

        @Test func preflightIsAnsweredOnPublicPaths() async throws {
            try await FullStack.run { s in
                let r = try await s.get("/v1/bpi/currentprice/JPY.json", method: "OPTIONS", headers: [
                    "Origin: \(Self.origin)", "Access-Control-Request-Method: GET",
                    "Access-Control-Request-Headers: if-none-match, x-request-id"])
                #expect(r.status == 204)
                #expect(r.body.isEmpty)
                #expect(r.header("Content-Length") == nil)
                #expect(r.header("Access-Control-Allow-Origin") == "*")
                #expect(r.header("Access-Control-Allow-Methods") == "GET, HEAD")
                #expect(r.header("Access-Control-Allow-Headers") == "if-none-match, x-request-id")
                #expect(r.header("Access-Control-Max-Age") == "86400")
                #expect(r.header("Allow") == "GET, HEAD, OPTIONS")
                #expect(s.count(F.coinbasePath) == 0, "a preflight never touches the upstream")

                let post = try await s.get("/v1/rates", method: "OPTIONS", headers: [
                    "Origin: \(Self.origin)", "Access-Control-Request-Method: POST"])
                #expect(post.status == 403)
                #expect(post.header("Access-Control-Allow-Origin") == nil)
                #expect(post.expectProblem(403).contains("POST"))
                let unsafe = try await s.get("/v1/books/\(F.isbn13)", method: "OPTIONS", headers: [
                    "Origin: \(Self.origin)", "Access-Control-Request-Method: GET", "Access-Control-Request-Headers: authorization"])
                #expect(unsafe.status == 403)
                #expect(unsafe.json?["type"] == .string(ProblemTypes.almanac.type(of: "cors-preflight-refused")))

                // Not a preflight: what the resource allows.
                let plain = try await s.get("/v1/rates", method: "OPTIONS")
                #expect(plain.status == 204)
                #expect(plain.header("Allow") == "GET, HEAD, OPTIONS")
                // The server as a whole (RFC 9110 §9.3.7).
                let client = try s.connect()
                try await client.send("OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                let star = try await client.readResponse()
                #expect(star.status == 204)
                #expect(star.header("Allow") == "DELETE, GET, HEAD, OPTIONS")
                // Preflights are counted under their route, like any request.
                let metrics = try await s.get("/metrics").text
                #expect(metricValue(metrics, "almanac_http_requests_total",
                                    ["route": "/v1/bpi/currentprice/{code}.json", "method": "OPTIONS", "status": "204"]) == 1)
            }
        }

        @Test func aListOfOriginsEchoesTheListedOneOnly() async throws {
            try await FullStack.run(configure: { $0.server.cors.allowedOrigins = [Self.origin, "http://localhost:3000"] }) { s in
                let listed = try await s.get("/v1/rates/USD", headers: ["Origin: \(Self.origin)"])
                #expect(listed.header("Access-Control-Allow-Origin") == Self.origin)
                #expect(listed.header("Access-Control-Expose-Headers") == Self.exposed)
                #expect(listed.headerValues("Vary").contains("Origin"))
                let other = try await s.get("/v1/rates/USD", headers: ["Origin: https://evil.example"])
                #expect(other.status == 200)
                #expect(other.header("Access-Control-Allow-Origin") == nil)
                #expect(other.headerValues("Vary").contains("Origin"))
                let twice = try await s.get("/v1/rates/USD", headers: ["Origin: \(Self.origin)", "Origin: https://evil.example"])
                #expect(twice.status == 200)
                #expect(twice.header("Access-Control-Allow-Origin") == nil, "two Origin fields: neither is admitted")
                #expect(twice.header("Access-Control-Expose-Headers") == nil)
                let none = try await s.get("/v1/rates/USD")
                #expect(none.header("Access-Control-Allow-Origin") == nil)
                #expect(none.headerValues("Vary").contains("Origin"), "a cache must not reuse it for another origin")

                let refused = try await s.get("/v1/rates", method: "OPTIONS", headers: [
                    "Origin: https://evil.example", "Access-Control-Request-Method: GET"])
                #expect(refused.status == 403)
                #expect(refused.expectProblem(403).contains("https://evil.example"))
                let granted = try await s.get("/v1/rates", method: "OPTIONS", headers: [
                    "Origin: http://localhost:3000", "Access-Control-Request-Method: GET"])
                #expect(granted.status == 204)
                #expect(granted.header("Access-Control-Allow-Origin") == "http://localhost:3000")
            }
        }

        /// `GET /`: name, version, commit, links, and every route of this instance by group.
        @Test func indexListsTheServiceByGroup() async throws {
            try await FullStack.run { s in
                let r = try await s.get("/")
                #expect(r.status == 200)
                #expect(r.header("Content-Type") == "application/json; charset=utf-8")
                let index = try OrderedJSON(r.body)
                #expect(index.keys == ["service", "version", "commit", "description", "links", "groups"])
                #expect(index["service"] == .string("almanac"))
                #expect(index["version"] == .string(AlmanacVersion.string))
                #expect(index["commit"] == .string(AlmanacVersion.commit))
                #expect(index["links"]?["openapi"] == .string("/openapi.json"))
                #expect(index["links"]?["docs"]?.text?.hasPrefix(AlmanacVersion.projectURL) == true)
                guard case let .array(groups)? = index["groups"] else {
                    Issue.record("no groups: \(r.text)")
                    return
                }
                #expect(groups.compactMap { $0["name"]?.text } == ["rates", "coindesk", "books", "google-books", "operations", "admin"])
                var listed: Set<String> = []
                for group in groups {
                    guard case let .array(endpoints)? = group["endpoints"] else { continue }
                    for endpoint in endpoints {
                        listed.insert(OpenAPITests.normalize(endpoint["method"]?.text ?? "", endpoint["path"]?.text ?? ""))
                        #expect(endpoint["summary"]?.text?.isEmpty == false, "\(endpoint)")
                    }
                }
                #expect(listed == Set(s.app.router.routes.map { OpenAPITests.normalize($0.method, $0.pattern) }))
                #expect(listed.contains("GET /v1/bpi/currentprice/{}.json") && listed.contains("GET /"))
            }
            // Without the admin API, no admin group.
            try await FullStack.run(configure: { $0.server.adminToken = nil }) { s in
                let index = try OrderedJSON(try await s.get("/").body)
                guard case let .array(groups)? = index["groups"] else { return }
                #expect(!groups.contains { $0["name"]?.text == "admin" })
            }
        }

        @Test func connectionsPastTheLimitAreToldWhenToRetry() async throws {
            try await FullStack.run(configure: { $0.server.http.maxConnections = 1 }) { s in
                // The one slot is busy (a request partly received: never reclaimed for a newcomer).
                let first = try s.connect()
                try await first.request("GET", "/healthz")
                #expect(try await first.readResponse().status == 200)
                try await first.send("GET /healthz HTTP/1.1\r\nHost: almanac\r\n")
                let second = try s.connect()
                let refused = try await second.readResponse()
                #expect(refused.status == 503)
                #expect(refused.header("Retry-After") == "1")
            }
        }
    }
}
