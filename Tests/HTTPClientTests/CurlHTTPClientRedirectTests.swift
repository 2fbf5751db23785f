import Foundation
import HTTPClient
import HTTPClientTestSupport
import Testing

@Suite struct CurlHTTPClientRedirectTests {
    private func redirect(_ location: String, status: Int = 302) -> StubResponse {
        StubResponse(status: status, headers: [("Location", location)])
    }

    @Test func upToThreeRedirectsAreFollowed() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/a", redirect("/b", status: 301))
        stub.route("/b", redirect(stub.baseURL + "/c", status: 307))
        stub.route("/c", redirect("/d?x=1", status: 308))
        stub.route("/d", .json(#"{"end":true}"#))
        let response = try await makeClient().get(UpstreamRequest(url: stub.baseURL + "/a", provider: "p", allowedHosts: ["127.0.0.1"]))
        #expect(response.status == 200)
        #expect(response.effectiveURL == stub.baseURL + "/d?x=1")
    }

    @Test func aFourthRedirectIsAnError() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        for (from, to) in [("/a", "/b"), ("/b", "/c"), ("/c", "/d"), ("/d", "/e")] { stub.route(from, redirect(to)) }
        stub.route("/e", .json("{}"))
        let error = await expectUpstreamError { try await makeClient().get(UpstreamRequest(url: stub.baseURL + "/a", provider: "p")) }
        #expect(error?.kind == .redirect)
        #expect(stub.requestCount(for: "/e") == 0)
    }

    @Test func redirectToADisallowedHostIsRefusedWithoutConnecting() async throws {
        let stub = try StubUpstream()
        let elsewhere = try StubUpstream()
        defer { stub.stop(); elsewhere.stop() }
        stub.route("/cover", redirect("http://localhost:\(elsewhere.port)/evil"))
        let error = await expectUpstreamError {
            try await makeClient().get(UpstreamRequest(url: stub.baseURL + "/cover", provider: "covers", allowedHosts: ["127.0.0.1", ".archive.org"]))
        }
        #expect(error?.kind == .redirect)
        #expect(error?.detail.contains("localhost") == true)
        #expect(elsewhere.acceptedConnections == 0)
    }

    @Test func initialURLOutsideAllowedHostsIsRefusedWithoutConnecting() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        let error = await expectUpstreamError {
            try await makeClient().get(UpstreamRequest(url: stub.baseURL + "/x", provider: "covers", allowedHosts: ["covers.openlibrary.org"]))
        }
        #expect(error?.kind == .invalidURL)
        #expect(stub.acceptedConnections == 0)
    }

    @Test func redirectToFTPIsRefused() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/a", redirect("ftp://127.0.0.1/file"))
        let error = await expectUpstreamError { try await makeClient().get(UpstreamRequest(url: stub.baseURL + "/a", provider: "p")) }
        #expect(error?.kind == .redirect)
    }

    @Test func hostPolicyMatchesExactNamesAndDotSuffixes() {
        #expect(HostPolicyProbe.allows("covers.openlibrary.org", ["covers.openlibrary.org"]))
        #expect(HostPolicyProbe.allows("ia800.us.archive.org", [".archive.org"]))
        #expect(HostPolicyProbe.allows("archive.org", [".archive.org"]))
        #expect(!HostPolicyProbe.allows("evilarchive.org", [".archive.org"]))
        #expect(!HostPolicyProbe.allows("openlibrary.org.evil.com", ["openlibrary.org"]))
    }
}
