import Foundation
import HTTPClient
import HTTPClientTestSupport
import TestSupport
import Testing

@Suite struct RedactionTests {
    @Test func errorDetailsNeverCarryTheSecret() async throws {
        let client = makeClient(retries: 0)
        let refused = await expectUpstreamError {
            try await client.get(UpstreamRequest(url: "http://127.0.0.1:\(refusedPort())/v?q=1&key=TOPSECRET42", provider: "google-books",
                                                 secretQueryParameters: ["key"]))
        }
        #expect(refused?.kind == .connectionRefused)
        #expect(refused?.detail.contains("TOPSECRET42") == false)
        #expect(refused?.diagnostic.contains("TOPSECRET42") == false)
        // The URL is for the log line only, redacted; the detail names no URL at all.
        #expect(refused?.url?.contains("key=***") == true)
        #expect(refused?.detail.contains("127.0.0.1") == false)
        #expect(refused?.description.contains("TOPSECRET42") == false)

        let invalid = await expectUpstreamError {
            try await client.get(UpstreamRequest(url: "gopher://x/?key=TOPSECRET42", provider: "g", secretQueryParameters: ["key"]))
        }
        #expect(invalid?.detail.contains("TOPSECRET42") == false)
        #expect(invalid?.diagnostic.contains("TOPSECRET42") == false)
    }

    @Test func outcomeLabelsAreSnakeCase() {
        #expect(UpstreamMetrics.outcomeLabel(for: .connectionRefused) == "connection_refused")
        #expect(UpstreamMetrics.outcomeLabel(for: .tooLarge) == "too_large")
        #expect(UpstreamMetrics.outcomeLabel(for: .dns) == "dns")
        #expect(UpstreamMetrics.outcomeLabel(for: .invalidURL) == "invalid_url")
        #expect(UpstreamMetrics.outcomeLabel(for: .redirected) == "redirected")
        #expect(UpstreamMetrics.outcomeLabel(forStatus: 503) == "http_5xx")
    }
}

@Suite struct ResponseHeaderParserTests {
    @Test func parsesFieldsAndRejectsConflictingLengths() {
        #expect(HeaderParserProbe.run(["HTTP/1.1 200 OK\r\n", "Content-Type: a/b\r\n", "Content-Length: 3\r\n", "\r\n"]) == nil)
        #expect(HeaderParserProbe.run(["HTTP/1.1 200 OK\r\n", "Content-Length: 3\r\n", "Content-Length: 3\r\n"]) == "malformed")
        #expect(HeaderParserProbe.run(["HTTP/1.1 200 OK\r\n", "Content-Length: 99999999\r\n"], max: 1000) == "tooLarge")
        // A 100 Continue's headers do not count against the final response's.
        #expect(HeaderParserProbe.run(["HTTP/1.1 100 Continue\r\n", "Content-Length: 0\r\n", "\r\n", "HTTP/1.1 200 OK\r\n", "Content-Length: 3\r\n", "\r\n"]) == nil)
    }
}
