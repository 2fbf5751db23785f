import TestSupport
import Foundation
import HTTPClientTestSupport
import Rates
import Testing
@testable import Almanac

extension FullStackTests {
    /// No upstream can steer almanac: the real app and libcurl client against a stub upstream,
    /// with two canaries that must never see a connection — a listener on another loopback
    /// address (127.0.0.2) and one on another port of the upstream's own address — whatever the
    /// upstream answers: redirects of every kind to them, and thumbnails naming them.
    @Suite struct Security {
        /// Two canaries, each answering anything with a tempting JPEG.
        final class Canaries: Sendable {
            let otherAddress: StubUpstream
            let otherPort: StubUpstream

            init() throws {
                otherAddress = try StubUpstream(address: "127.0.0.2")
                otherPort = try StubUpstream()
                for canary in [otherAddress, otherPort] {
                    canary.route("/x", StubResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: F.jpeg))
                }
            }

            var connections: Int { otherAddress.acceptedConnections + otherPort.acceptedConnections }

            func stop() {
                otherAddress.stop()
                otherPort.stop()
            }

            /// Every spelling of "go to a canary" that a redirect or a thumbnail could use.
            func tricks(upstreamPort: Int) -> [String] {
                let far = otherAddress.port, near = otherPort.port
                return [
                    "http://127.0.0.2:\(far)/x",                          // another address
                    "http://127.0.0.1:\(near)/x",                         // another port of the upstream host
                    "http://localhost:\(near)/x",                         // its name
                    "//127.0.0.2:\(far)/x",                               // scheme-relative
                    "http://2130706434:\(far)/x",                         // decimal 127.0.0.2
                    "http://0x7f000002:\(far)/x",                         // hex
                    "http://0177.0.0.2:\(far)/x",                         // octal
                    "http://127.1:\(near)/x",                             // shortened 127.0.0.1
                    "http://a@127.0.0.2:\(far)/x",                        // userinfo
                    "http://127.0.0.1:\(upstreamPort)@127.0.0.2:\(far)/x", // the allowed origin as userinfo
                    "http://127.0.0.2.:\(far)/x",                         // trailing dot
                    "http://[::ffff:127.0.0.2]:\(far)/x",                 // IPv6-mapped literal
                    "https://127.0.0.2:\(far)/x",                         // another scheme on the canary
                ]
            }
        }

        private static func redirect(_ location: String, status: Int) -> StubResponse {
            StubResponse(status: status, headers: [("Location", location)])
        }

        private static let statuses = [301, 302, 303, 307, 308]

        private static func purgeBooks(_ s: FullStack) async throws {
            let purge = try await s.get("/admin/cache", method: "DELETE", headers: ["Authorization: Bearer \(FullStack.adminToken)"])
            #expect(purge.status == 204 || purge.status == 200, "\(purge.text)")
        }

        @Test func rateRedirectsAreProviderFailuresAndNeverFollowed() async throws {
            let canaries = try Canaries()
            defer { canaries.stop() }
            try await FullStack.run(configure: FullStack.unthrottled) { s in
                for location in canaries.tricks(upstreamPort: s.stub.port) + ["/v2/exchange-rates-moved"] {
                    for status in Self.statuses {
                        s.stub.route(F.coinbasePath, Self.redirect(location, status: status))
                        s.stub.route(F.coingeckoPath, Self.redirect(location, status: status))
                        let response = try await s.get("/v1/rates", headers: ["X-Request-ID: trick-\(status)"])
                        let detail = response.expectProblem(502)
                        #expect(detail == "Every provider failed: coinbase: redirected; coingecko: redirected (request id trick-\(status))",
                                "\(location): \(detail)")
                        #expect(!response.text.contains("127.0.0"), "\(response.text)")
                    }
                }
                #expect(s.count("/v2/exchange-rates-moved") == 0)
                // The operator's line: same request id, the (upstream) URL and where it pointed.
                let warn = s.logs.lines.last { $0.contains(#""msg":"upstream failed""#) && $0.contains(#""provider":"coinbase""#) }
                #expect(warn?.contains(#""request_id":"trick-308""#) == true, "\(warn ?? "no warn line")")
                #expect(warn?.contains(#""cause":"redirected""#) == true)
                #expect(warn?.contains(#""url":"http://127.0.0.1:\#(s.stub.port)/v2/exchange-rates?currency=BTC""#) == true, "\(warn ?? "")")
            }
            #expect(canaries.connections == 0)
        }

        @Test func bookLookupRedirectsAreProviderFailuresAndNeverFollowed() async throws {
            let canaries = try Canaries()
            defer { canaries.stop() }
            try await FullStack.run(configure: FullStack.unthrottled) { s in
                for location in canaries.tricks(upstreamPort: s.stub.port) {
                    for status in Self.statuses {
                        s.stub.route(F.googleTarget(F.isbn13), Self.redirect(location, status: status))
                        s.stub.route(F.openLibraryTarget(F.isbn13), Self.redirect(location, status: status))
                        let response = try await s.get("/v1/books/\(F.isbn13)")
                        let detail = response.expectProblem(502)
                        #expect(detail.hasPrefix("Every provider failed: google-books: redirected; open-library: redirected (request id "),
                                "\(detail)")
                        #expect(!response.text.contains("127.0.0"))
                    }
                }
            }
            #expect(canaries.connections == 0)
        }

        @Test func thumbnailsNamingACanaryAreNeverFetchedNorShown() async throws {
            let canaries = try Canaries()
            defer { canaries.stop() }
            try await FullStack.run(configure: FullStack.unthrottled) { s in
                for thumbnail in canaries.tricks(upstreamPort: s.stub.port) {
                    try await Self.purgeBooks(s)
                    s.stub.route(F.googleTarget(F.isbn13), .json(Self.googleAnswer(thumbnail: thumbnail)))
                    s.stub.route(F.openLibraryTarget(F.isbn13), .json(F.openLibraryNotFound))
                    let cover = try await s.get("/v1/books/\(F.isbn13)/cover")
                    let detail = cover.expectProblem(502)
                    // Labelled by the provider whose answer named the image.
                    #expect(detail.hasPrefix("google-books: cover URL refused by the cover host policy (request id "), "\(thumbnail): \(detail)")
                    #expect(!cover.text.contains("127.0.0"))
                    let volumes = try await s.get("/books/v1/volumes?q=isbn:\(F.isbn13)")
                    #expect(volumes.status == 200)
                    #expect(!volumes.text.contains(String(canaries.otherAddress.port)) && !volumes.text.contains(String(canaries.otherPort.port)))
                    guard case let .array(items)? = volumes.json?["items"],
                          case let .string(link)? = items.first?["volumeInfo"]?["imageLinks"]?["thumbnail"] else {
                        Issue.record("no imageLinks: \(volumes.text)")
                        continue
                    }
                    #expect(link == "http://127.0.0.1/v1/books/\(F.isbn13)/cover")
                }
            }
            #expect(canaries.connections == 0)
        }

        @Test func coverRedirectsToACanaryAreRefusedBeforeConnecting() async throws {
            let canaries = try Canaries()
            defer { canaries.stop() }
            try await FullStack.run(configure: FullStack.unthrottled) { s in
                for location in canaries.tricks(upstreamPort: s.stub.port) {
                    for status in Self.statuses {
                        s.stub.route(F.coverPath, Self.redirect(location, status: status))
                        let cover = try await s.get("/v1/books/\(F.isbn13)/cover")
                        let detail = cover.expectProblem(502)
                        #expect(detail.hasPrefix("open-library: redirected to a refused location (request id "), "\(location): \(detail)")
                        #expect(!cover.text.contains("127.0.0"))
                    }
                }
                // Hops within the allowed origin are followed, at most three.
                s.stub.route(F.coverPath, Self.redirect("/hop1", status: 302))
                s.stub.route("/hop1", Self.redirect(s.stub.baseURL + "/hop2", status: 307))
                s.stub.route("/hop2", StubResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: F.jpeg))
                let followed = try await s.get("/v1/books/\(F.isbn13)/cover")
                #expect(followed.status == 200)
                #expect(followed.body == F.jpeg)
            }
            #expect(canaries.connections == 0)
        }

        @Test func timeoutsAndStatusesNameProviderCauseAndRequestIDOnly() async throws {
            try await FullStack.run(configure: { FullStack.unthrottled(&$0); $0.upstream.client.timeoutMs = 400 }) { s in
                s.stub.setFault(.hang, for: F.coinbasePath)
                s.stub.setFault(.status(503), for: F.coingeckoPath)
                let response = try await s.get("/v1/rates", headers: ["X-Request-ID: abc-123"])
                let detail = response.expectProblem(502)
                #expect(detail == "Every provider failed: coinbase: timed out after 400 ms; coingecko: HTTP 503 (request id abc-123)")
                #expect(!response.text.contains("127.0.0.1") && !response.text.contains(String(s.stub.port)))
                let lines = s.logs.lines.filter { $0.contains(#""msg":"upstream failed""#) && $0.contains(#""request_id":"abc-123""#) }
                #expect(lines.count == 2)
                #expect(lines.allSatisfy { $0.contains(#""url":"http://127.0.0.1:\#(s.stub.port)/"#) })
            }
        }

        @Test func forwardedForIsLoggedOnlyWhenTrusted() async throws {
            for trusted in [false, true] {
                try await FullStack.run(configure: { $0.server.http.trustForwardedHeaders = trusted; $0.log.level = .info }) { s in
                    let response = try await s.get("/healthz", headers: ["X-Request-ID: xff-\(trusted)",
                                                                         "X-Forwarded-For: 198.51.100.9, 203.0.113.7"])
                    #expect(response.status == 200)
                    // The line is handed over once the response is written: wait for it.
                    func line() -> String? {
                        s.app.logger.flushAccessLog()
                        return s.logs.lines.first { $0.contains(#""request_id":"xff-\#(trusted)""#) }
                    }
                    #expect(await waitUntil { line() != nil }, "the access line")
                    let line = line()
                    #expect(line?.contains(trusted ? #""remote":"203.0.113.7""# : #""remote":"127.0.0.1""#) == true, "\(line ?? "no line")")
                }
            }
        }

        static func googleAnswer(thumbnail: String) -> String {
            """
            {"kind":"books#volumes","totalItems":1,"items":[
              {"kind":"books#volume","volumeInfo":{"title":"Fundamentals of Statistics",
                "industryIdentifiers":[{"type":"ISBN_13","identifier":"\(F.isbn13)"}],
                "imageLinks":{"smallThumbnail":"\(thumbnail)","thumbnail":"\(thumbnail)"}}}]}
            """
        }
    }
}
