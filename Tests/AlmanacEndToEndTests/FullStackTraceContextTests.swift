import Foundation
import HTTPClientTestSupport
import TestSupport
import Testing
@testable import Almanac

extension FullStackTests.Binary {
    /// W3C trace context through the real executable: the client's trace id is on the access
    /// line, on the warn line of a failed upstream request, and in the `traceparent` every
    /// upstream request carried (almanac's own span as the parent, the caller's `tracestate`
    /// kept); a malformed `traceparent` is ignored (a new trace, no error), and a request
    /// without one starts a trace too.
    @Suite struct TraceContextPropagation {
        static let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
        static let clientSpan = "00f067aa0ba902b7"

        /// The JSON log lines of the spawned process whose `field` is `value`.
        static func lines(_ spawned: AlmanacBinary.Spawned, _ field: String, _ value: String) -> [[String: Any]] {
            spawned.stdout.split(separator: "\n").compactMap { line in
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
                return object[field] as? String == value ? object : nil
            }
        }

        static func isHex(_ text: String?, count: Int) -> Bool {
            guard let text else { return false }
            return text.utf8.count == count && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }

        static func serving(_ stub: StubUpstream) async throws -> (AlmanacBinary.Spawned, Int) {
            try await AlmanacBinary.serving(AlmanacBinary.stubEnvironment(stub.baseURL).merging([
                "ALMANAC_LOG_LEVEL": "info",
                "ALMANAC_UPSTREAM_RETRIES": "0",
                "ALMANAC_RATES_PROVIDERS": "coinbase",
            ]) { _, given in given })
        }

        @Test func theClientsTraceReachesBothLogLinesAndEveryUpstreamRequest() async throws {
            let stub = try StubUpstream()
            defer { stub.stop() }
            FullStackFixtures.scriptAll(stub)
            stub.setFault(.status(503), for: FullStackFixtures.googlePath) // fails, open-library answers
            let (spawned, port) = try await Self.serving(stub)
            defer { spawned.removeFiles() }
            let client = try RawHTTPClient(port: port, timeout: 15)

            try await client.request("GET", "/v1/books/\(FullStackFixtures.isbn13)", extra: [
                "X-Request-ID: traced",
                "traceparent: 00-\(Self.traceID)-\(Self.clientSpan)-01",
                "tracestate: rojo=00f067aa0ba902b7 , congo=t61rcWkgMzE",
            ])
            #expect(try await client.readResponse().status == 200)
            #expect(await waitUntil { !Self.lines(spawned, "request_id", "traced").filter { $0["msg"] as? String == "request" }.isEmpty },
                    "the access line")

            let access = try #require(Self.lines(spawned, "request_id", "traced").first { $0["msg"] as? String == "request" })
            #expect(access["trace_id"] as? String == Self.traceID)
            let span = try #require(access["span_id"] as? String)
            #expect(Self.isHex(span, count: 16) && span != Self.clientSpan, "almanac's own span: \(span)")

            let warn = try #require(Self.lines(spawned, "request_id", "traced").first { $0["msg"] as? String == "upstream failed" })
            #expect(warn["level"] as? String == "warn")
            #expect(warn["provider"] as? String == "google-books")
            #expect(warn["trace_id"] as? String == Self.traceID)
            #expect(warn["span_id"] as? String == span)

            let upstream = stub.requests.filter {
                [FullStackFixtures.googlePath, FullStackFixtures.openLibraryPath].contains($0.path)
            }
            #expect(upstream.count == 2, "google-books and open-library: \(upstream.map(\.target))")
            for request in upstream {
                #expect(request.headers["traceparent"] == "00-\(Self.traceID)-\(span)-01", "\(request.target)")
                #expect(request.headers["tracestate"] == "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE", "\(request.target)")
            }
        }

        /// A failing rates request answered from the cache (the table lists EUR without a
        /// usable rate): its warn line carries the client's trace and almanac's span, the same
        /// as its access line, though a cached answer is made synchronously.
        @Test func aFailingRatesRequestsWarnLineCarriesTheClientsTrace() async throws {
            let stub = try StubUpstream()
            defer { stub.stop() }
            FullStackFixtures.scriptAll(stub)
            stub.route(FullStackFixtures.coinbasePath,
                       .json(#"{"data":{"currency":"BTC","rates":{"USD":"91234.56","EUR":"-5"}}}"#))
            let (spawned, port) = try await Self.serving(stub)
            defer { spawned.removeFiles() }
            let client = try RawHTTPClient(port: port, timeout: 15)

            // The first request loads the table; the second is answered from it.
            try await client.request("GET", "/v1/rates/USD", extra: ["X-Request-ID: load"])
            #expect(try await client.readResponse().status == 200)
            try await client.request("GET", "/v1/rates/EUR", extra: [
                "X-Request-ID: cached-failure", "traceparent: 00-\(Self.traceID)-\(Self.clientSpan)-01",
            ])
            #expect(try await client.readResponse().status == 502)
            #expect(stub.requestCount(for: FullStackFixtures.coinbasePath) == 1, "answered from the cached table")
            #expect(await waitUntil { Self.lines(spawned, "request_id", "cached-failure").count == 2 },
                    "the warn and access lines: \(spawned.stdout)")

            let lines = Self.lines(spawned, "request_id", "cached-failure")
            let access = try #require(lines.first { $0["msg"] as? String == "request" })
            let warn = try #require(lines.first { $0["msg"] as? String == "upstream failed" })
            #expect(warn["level"] as? String == "warn")
            #expect(warn["provider"] as? String == "coinbase")
            #expect(access["trace_id"] as? String == Self.traceID)
            #expect(warn["trace_id"] as? String == Self.traceID, "\(warn)")
            #expect(Self.isHex(warn["span_id"] as? String, count: 16))
            #expect(warn["span_id"] as? String == access["span_id"] as? String)
        }

        @Test func aMalformedTraceparentIsIgnoredAndAMissingOneStartsATrace() async throws {
            let stub = try StubUpstream()
            defer { stub.stop() }
            FullStackFixtures.scriptAll(stub)
            let (spawned, port) = try await Self.serving(stub)
            defer { spawned.removeFiles() }
            let client = try RawHTTPClient(port: port, timeout: 15)

            // Upper-case hex is not a traceparent: the request is answered and starts a new trace;
            // the tracestate that came with it is dropped.
            let upper = Self.traceID.uppercased()
            try await client.request("GET", "/v1/rates/USD", extra: [
                "X-Request-ID: malformed", "traceparent: 00-\(upper)-\(Self.clientSpan)-01", "tracestate: rojo=1",
            ])
            #expect(try await client.readResponse().status == 200)
            #expect(await waitUntil { !Self.lines(spawned, "request_id", "malformed").isEmpty }, "the access line")
            let malformed = try #require(Self.lines(spawned, "request_id", "malformed").first)
            let newTrace = try #require(malformed["trace_id"] as? String)
            #expect(Self.isHex(newTrace, count: 32) && newTrace != Self.traceID)
            let rates = try #require(stub.requests.first { $0.path == FullStackFixtures.coinbasePath })
            #expect(rates.headers["traceparent"] == "00-\(newTrace)-\(malformed["span_id"] as? String ?? "?")-00")
            #expect(rates.headers["tracestate"] == nil)

            // No traceparent at all: a trace of almanac's own, sent upstream as well.
            try await client.request("GET", "/v1/books/\(FullStackFixtures.isbn13)", extra: ["X-Request-ID: untraced"])
            #expect(try await client.readResponse().status == 200)
            #expect(await waitUntil { !Self.lines(spawned, "request_id", "untraced").isEmpty }, "the access line")
            let untraced = try #require(Self.lines(spawned, "request_id", "untraced").first)
            let started = try #require(untraced["trace_id"] as? String)
            #expect(Self.isHex(started, count: 32) && started != newTrace)
            let books = try #require(stub.requests.first { $0.path == FullStackFixtures.googlePath })
            #expect(books.headers["traceparent"] == "00-\(started)-\(untraced["span_id"] as? String ?? "?")-00")
        }
    }
}
