import Foundation
@testable import HTTPClient
import HTTPClientTestSupport
import TestSupport
import Testing

/// Redirect policy end to end: API calls never follow a 3xx; covers follow at most three hops,
/// each checked by scheme, host and port before it is requested. A canary listening on another
/// loopback address (127.0.0.2) and one on another port of the upstream's own address must see
/// no connection under any trick.
@Suite(.timeLimit(.minutes(5))) struct CurlHTTPClientRedirectTests {
    private func redirect(_ location: String, status: Int = 302) -> StubResponse {
        StubResponse(status: status, headers: [("Location", location)])
    }

    /// Only the stub's own origin.
    private func policy(_ stub: StubUpstream) -> HostPolicy {
        HostPolicy([HostPolicy.Entry(scheme: "http", host: "127.0.0.1", port: stub.port)])
    }

    /// Locations that lead to one of the canaries, however they are spelled.
    private func tricks(otherAddress: StubUpstream, otherPort: StubUpstream, upstream: StubUpstream) -> [String] {
        let far = otherAddress.port, near = otherPort.port
        return [
            "http://127.0.0.2:\(far)/x",                       // another loopback address
            "http://127.0.0.1:\(near)/x",                      // another port of the upstream host
            "//127.0.0.2:\(far)/x",                            // scheme-relative
            "http://2130706434:\(far)/x",                      // 127.0.0.2 as one decimal number
            "http://0x7f000002:\(far)/x",                      // … in hex
            "http://0177.0.0.2:\(far)/x",                      // … in octal
            "http://127.2:\(far)/x",                           // … shortened
            "http://a@127.0.0.2:\(far)/x",                     // userinfo
            "http://127.0.0.1:\(upstream.port)@127.0.0.2:\(far)/x", // the allowed origin as userinfo
            "http://localhost.:\(near)/x",                     // trailing dot
            "http://[::ffff:127.0.0.2]:\(far)/x",              // IPv6 literal
            "ftp://127.0.0.2:\(far)/x",                        // another scheme
        ]
    }

    @Test func coversFollowUpToThreeHopsOnTheAllowedOrigin() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/a", redirect("/b", status: 301))
        stub.route("/b", redirect(stub.baseURL + "/c", status: 307))
        stub.route("/c", redirect("/d?x=1", status: 308))
        stub.route("/d", .json(#"{"end":true}"#))
        let response = try await makeClient().get(UpstreamRequest(url: stub.baseURL + "/a", provider: "p", redirects: .within(policy(stub))))
        #expect(response.status == 200)
        #expect(response.effectiveURL == stub.baseURL + "/d?x=1")
    }

    @Test func aFourthRedirectIsRedirected() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        for (from, to) in [("/a", "/b"), ("/b", "/c"), ("/c", "/d"), ("/d", "/e")] { stub.route(from, redirect(to)) }
        stub.route("/e", .json("{}"))
        let error = await expectUpstreamError {
            try await makeClient().get(UpstreamRequest(url: stub.baseURL + "/a", provider: "p", redirects: .within(policy(stub))))
        }
        #expect(error?.kind == .redirected)
        #expect(stub.requestCount(for: "/e") == 0)
    }

    @Test func apiCallsNeverFollowEvenToTheSameOrigin() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/v2/exchange-rates", redirect("/elsewhere", status: 301))
        stub.route("/elsewhere", .json("{}"))
        let error = await expectUpstreamError {
            try await makeClient().get(UpstreamRequest(url: stub.baseURL + "/v2/exchange-rates?currency=BTC", provider: "coinbase"))
        }
        #expect(error?.kind == .redirected)
        #expect(error?.publicDescription == "coinbase: redirected")
        #expect(error?.diagnostic.contains("/elsewhere") == true)
        #expect(error?.url == stub.baseURL + "/v2/exchange-rates?currency=BTC")
        #expect(stub.requestCount(for: "/elsewhere") == 0)
    }

    @Test func everyRedirectTrickLeavesTheCanariesUntouched() async throws {
        let upstream = try StubUpstream()
        let otherAddress = try StubUpstream(address: "127.0.0.2")
        let otherPort = try StubUpstream()
        defer { upstream.stop(); otherAddress.stop(); otherPort.stop() }
        otherAddress.route("/x", .json("{}"))
        otherPort.route("/x", .json("{}"))
        let client = makeClient()
        for (i, location) in tricks(otherAddress: otherAddress, otherPort: otherPort, upstream: upstream).enumerated() {
            for status in [301, 302, 303, 307, 308] {
                upstream.route("/api\(i)-\(status)", redirect(location, status: status))
                upstream.route("/cover\(i)-\(status)", redirect(location, status: status))
                let api = await expectUpstreamError {
                    try await client.get(UpstreamRequest(url: upstream.baseURL + "/api\(i)-\(status)", provider: "coinbase"))
                }
                #expect(api?.kind == .redirected, "API call, \(status) to \(location)")
                let cover = await expectUpstreamError {
                    try await client.get(UpstreamRequest(url: upstream.baseURL + "/cover\(i)-\(status)", provider: "open-library",
                                                         redirects: .within(policy(upstream))))
                }
                #expect(cover?.kind == .redirected, "cover, \(status) to \(location)")
                #expect(cover?.detail.contains("127.0.0") == false)
            }
        }
        #expect(otherAddress.acceptedConnections == 0)
        #expect(otherPort.acceptedConnections == 0)
    }

    @Test func initialURLOutsideThePolicyIsRefusedWithoutConnecting() async throws {
        let stub = try StubUpstream()
        let otherPort = try StubUpstream()
        defer { stub.stop(); otherPort.stop() }
        // Same host, another port: the port is part of the origin.
        let error = await expectUpstreamError {
            try await makeClient().get(UpstreamRequest(url: otherPort.baseURL + "/x", provider: "covers", redirects: .within(policy(stub))))
        }
        #expect(error?.kind == .invalidURL)
        #expect(otherPort.acceptedConnections == 0)
    }

    @Test func userinfoIsRefusedEvenForAPICalls() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        let error = await expectUpstreamError {
            try await makeClient().get(UpstreamRequest(url: "http://user:secret@127.0.0.1:\(stub.port)/x", provider: "coinbase"))
        }
        #expect(error?.kind == .invalidURL)
        #expect(stub.acceptedConnections == 0)
    }

    @Test func credentialHeadersAreDroppedOnAHopToAnotherOrigin() async throws {
        let first = try StubUpstream()
        let second = try StubUpstream()
        defer { first.stop(); second.stop() }
        first.route("/a", redirect(second.baseURL + "/b"))
        second.route("/b", .json("{}"))
        let policy = HostPolicy([HostPolicy.Entry(scheme: "http", host: "127.0.0.1", port: first.port),
                                 HostPolicy.Entry(scheme: "http", host: "127.0.0.1", port: second.port)])
        let response = try await makeClient().get(UpstreamRequest(
            url: first.baseURL + "/a", headers: [UpstreamHeader("Authorization", "Bearer abcdefgh"), UpstreamHeader("Accept", "image/*")],
            provider: "p", redirects: .within(policy)))
        #expect(response.status == 200)
        #expect(first.requests.first?.headers["authorization"] == "Bearer abcdefgh")
        #expect(second.requests.first?.headers["authorization"] == nil)
        #expect(second.requests.first?.headers["accept"] == "image/*")
    }

    @Test func failureDetailsNameTheCauseNeverTheAddress() async throws {
        let port = try refusedPort()
        let error = await expectUpstreamError {
            try await makeClient().get(UpstreamRequest(url: "http://127.0.0.1:\(port)/v1?key=SECRETKEY", provider: "google-books",
                                                       secretQueryParameters: ["key"]))
        }
        #expect(error?.kind == .connectionRefused)
        #expect(error?.publicDescription == "google-books: connection refused")
        #expect(error?.url == "http://127.0.0.1:\(port)/v1?key=***")
        #expect(error?.diagnostic.contains("SECRETKEY") == false)
    }

    @Test func timeoutsSayHowLongWasWaited() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.setFault(.hang)
        let error = await expectUpstreamError {
            try await makeClient(timeoutMs: 300).get(UpstreamRequest(url: stub.baseURL + "/slow", provider: "google-books"))
        }
        #expect(error?.publicDescription == "google-books: timed out after 300 ms")
    }
}

/// The origin reading every allow-list decision rests on, trick by trick (no sockets).
@Suite struct UpstreamOriginTests {
    private func refusal(_ url: String) -> UpstreamOrigin.Refusal? {
        if case .failure(let refusal) = UpstreamOrigin.parse(url) { return refusal }
        return nil
    }

    @Test func defaultPortsAreMadeExplicit() throws {
        #expect(try UpstreamOrigin.parse("https://Books.Google.com/x").get() == UpstreamOrigin(scheme: "https", host: "books.google.com", port: 443))
        #expect(try UpstreamOrigin.parse("HTTP://example.org").get() == UpstreamOrigin(scheme: "http", host: "example.org", port: 80))
        #expect(try UpstreamOrigin.parse("https://example.org:443/").get() == UpstreamOrigin.parse("https://example.org/").get())
        #expect(try UpstreamOrigin.parse("http://127.0.0.1:8080/a?b#c").get() == UpstreamOrigin(scheme: "http", host: "127.0.0.1", port: 8080))
    }

    @Test func userinfoIsRefused() {
        #expect(refusal("http://a@b.example/") == .userinfo)
        #expect(refusal("https://user:pass@books.google.com/") == .userinfo)
        #expect(refusal("https://books.google.com@evil.example/") == .userinfo)
        #expect(refusal("https://books.google.com:443@evil.example/") == .userinfo)
    }

    @Test func numericHostTricksAreRefused() {
        for url in ["http://2130706433/", "http://0x7f000001/", "http://0x7f.0.0.1/", "http://0177.0.0.1/",
                    "http://127.1/", "http://127.0.1/", "http://127.0.0.01/", "http://256.0.0.1/", "http://1.2.3.4.5/",
                    "http://0/", "http://1.2.3.0x4/"] {
            #expect(refusal(url) == .numericHost, "\(url)")
        }
        #expect(refusal("http://127.0.0.1/") == nil)
        #expect(refusal("http://10.0.0.0/") == nil)
        #expect(refusal("https://1e100.net/") == nil)
        #expect(refusal("https://123.example/") == nil)
    }

    @Test func otherHostSpellingsAreRefused() {
        #expect(refusal("https://books.google.com./x") == .trailingDot)
        #expect(refusal("http://[::1]/") == .ipv6Literal)
        #expect(refusal("http://[::ffff:127.0.0.1]:80/") == .ipv6Literal)
        #expect(refusal("http://a..b/") == .badHost)
        #expect(refusal("http://.a/") == .badHost)
        #expect(refusal("http://%31%32%37.0.0.1/") == .badHost)
        #expect(refusal("http://exa_mple.org/") == .badHost)
        #expect(refusal("http:///path") == .badHost)
        #expect(refusal("http://bücher.example/") == .badCharacters)
        #expect(refusal("http://a.example\\@b.example/") == .badCharacters)
        #expect(refusal("http://a.example /") == .badCharacters)
    }

    @Test func portsMustBePresentAndInRange() {
        #expect(refusal("http://a.example:/") == .badPort)
        #expect(refusal("http://a.example:0/") == .badPort)
        #expect(refusal("http://a.example:65536/") == .badPort)
        #expect(refusal("http://a.example:+80/") == .badPort)
        #expect(refusal("http://a.example:80:81/") == .badPort)
    }

    @Test func otherSchemesAndRelativeReferencesAreRefused() {
        for url in ["//books.google.com/x", "ftp://books.google.com/", "file:///etc/passwd", "gopher://x/",
                    "javascript:alert(1)", "/b/id/1.jpg", "", "https:books.google.com"] {
            #expect(refusal(url) == .notHTTP, "\(url)")
        }
    }

    @Test func policyComparesSchemeHostAndPort() {
        let policy = HostPolicy([
            HostPolicy.Entry(scheme: "https", host: "covers.openlibrary.org", port: 443),
            HostPolicy.Entry(scheme: "https", host: "archive.org", port: 443, includesSubdomains: true),
        ])
        #expect(policy.allows("https://covers.openlibrary.org/b/id/1-L.jpg"))
        #expect(policy.allows("https://covers.openlibrary.org:443/b/id/1-L.jpg"))
        #expect(policy.allows("https://ia800.us.archive.org/x.jpg"))
        #expect(policy.allows("https://archive.org/download/x.jpg"))
        #expect(!policy.allows("http://covers.openlibrary.org/b/id/1-L.jpg"))      // scheme
        #expect(!policy.allows("https://covers.openlibrary.org:8443/b/id/1-L.jpg")) // port
        #expect(!policy.allows("https://evilarchive.org/x.jpg"))
        #expect(!policy.allows("https://covers.openlibrary.org.evil.example/x.jpg"))
        #expect(policy.check("https://u@archive.org/") == .failure(.url(.userinfo)))
    }
}
