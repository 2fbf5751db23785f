import TestSupport
import Foundation
import HTTPClient
import HTTPClientTestSupport
import Testing

@Suite(.timeLimit(.minutes(5))) struct CurlHTTPClientBasicTests {
    @Test func getReturnsStatusHeadersBodyAndSendsUserAgentAndHeaders() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/v2/exchange-rates", .json(#"{"data":{"currency":"BTC"}}"#))
        let client = makeClient()
        let response = try await client.get(UpstreamRequest(
            url: stub.baseURL + "/v2/exchange-rates?currency=BTC",
            headers: [UpstreamHeader("Accept", "application/json")], provider: "coinbase"))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"data":{"currency":"BTC"}}"#)
        #expect(response.effectiveURL == stub.baseURL + "/v2/exchange-rates?currency=BTC")
        let seen = try #require(stub.requests.first)
        #expect(seen.query == "currency=BTC")
        #expect(seen.headers["user-agent"] == "almanac-tests/1")
        #expect(seen.headers["accept"] == "application/json")
        #expect(seen.headers["accept-encoding"]?.contains("gzip") == true)
        #expect(client.metrics.count(provider: "coinbase", outcome: "ok") == 1)
        #expect(client.metrics.snapshot()["coinbase"]?.latency.count == 1)
    }

    @Test func httpErrorStatusIsAValueAndCountedByClass() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/missing", .json("{}", status: 404))
        stub.route("/broken", .json("{}", status: 500))
        let client = makeClient(retries: 2)
        #expect(try await client.get(UpstreamRequest(url: stub.baseURL + "/missing", provider: "p")).status == 404)
        #expect(try await client.get(UpstreamRequest(url: stub.baseURL + "/broken", provider: "p")).status == 500)
        #expect(stub.requestCount(for: "/broken") == 1, "500 is not retried")
        #expect(client.metrics.count(provider: "p", outcome: "http_4xx") == 1)
        #expect(client.metrics.count(provider: "p", outcome: "http_5xx") == 1)
    }

    @Test func gzipBodyIsDecoded() async throws {
        let gzipped: [UInt8] = [31, 139, 8, 0, 0, 0, 0, 0, 2, 255, 171, 86, 202, 72, 205, 201, 201, 87, 178, 82, 74, 175,
                                202, 44, 80, 210, 81, 42, 72, 76, 1, 114, 42, 134, 9, 80, 170, 5, 0, 191, 38, 38, 131, 225, 0, 0, 0]
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/gz", StubResponse(headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], body: gzipped))
        let response = try await makeClient().get(UpstreamRequest(url: stub.baseURL + "/gz", provider: "p"))
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"hello":"gzip","pad":""# + String(repeating: "x", count: 200) + #""}"#)
    }

    @Test func sequentialRequestsReuseOneConnection() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/r", .json(#"{"ok":true}"#))
        let client = makeClient()
        for _ in 0..<100 {
            #expect(try await client.get(UpstreamRequest(url: stub.baseURL + "/r", provider: "p")).status == 200)
        }
        #expect(stub.requestCount(for: "/r") == 100)
        #expect(stub.acceptedConnections <= 2)
    }

    @Test func invalidURLIsRefusedWithoutNetwork() async throws {
        let client = makeClient()
        let error = await expectUpstreamError { try await client.get(UpstreamRequest(url: "not a url", provider: "p")) }
        #expect(error?.kind == .invalidURL)
        let ftp = await expectUpstreamError { try await client.get(UpstreamRequest(url: "ftp://127.0.0.1/x", provider: "p")) }
        #expect(ftp?.kind == .invalidURL)
    }

    @Test func connectionRefusedIsTypedAndRetried() async throws {
        let client = makeClient(retries: 2) { $0.retryBaseDelayMs = 10 }
        let error = await expectUpstreamError {
            try await client.get(UpstreamRequest(url: "http://127.0.0.1:\(refusedPort())/x", provider: "p"))
        }
        #expect(error?.kind == .connectionRefused)
        #expect(error?.provider == "p")
        #expect(client.metrics.count(provider: "p", outcome: "connection_refused") == 3)
    }
}

@Suite(.serialized, .timeLimit(.minutes(5))) struct CurlHTTPClientConcurrencyTests {
    @Test func fiveHundredConcurrentGetsSucceedWithBoundedThreads() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/c", .json(#"{"n":1}"#))
        let client = makeClient(timeoutMs: 30_000)
        let peak = Locked(0)
        let done = Locked(false)
        let sampler = Task {
            while !done.value {
                let threads = procStatus("Threads") ?? 0
                peak.withLock { $0 = max($0, threads) }
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for i in 0..<500 {
                group.addTask { try await client.get(UpstreamRequest(url: stub.baseURL + "/c?i=\(i)", provider: "p")).status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        done.set(true)
        await sampler.value
        #expect(statuses.count == 500)
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(stub.acceptedConnections <= HTTPClientConfiguration().maxConnectionsPerHost)
        // One curl queue, the cooperative pool and the stub's ≤ 8 connection threads (plus
        // whatever other tests run meanwhile): nowhere near a thread per request.
        #expect(peak.value < 150, "peak threads \(peak.value)")
    }
}

@Suite(.timeLimit(.minutes(5))) struct CurlHTTPClientSocketChurnTests {
    /// Every answer closes its connection, so curl opens, registers, removes and closes sockets
    /// constantly and fd numbers are reused: the Dispatch sources must follow without leaks,
    /// hangs or crashes. `localhost` also exercises curl's threaded resolver and its socketpair.
    @Test(arguments: ["127.0.0.1", "localhost"])
    func connectionChurnWithFdReuse(host: String) async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/churn", StubResponse(headers: [("Connection", "close")], body: Array("{}".utf8)))
        let client = makeClient(timeoutMs: 20_000)
        let url = "http://\(host):\(stub.port)/churn"
        let fdsBefore = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        for _ in 0..<50 {
            #expect(try await client.get(UpstreamRequest(url: url, provider: "p")).status == 200)
        }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<150 { group.addTask { try await client.get(UpstreamRequest(url: url, provider: "p")).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 200 })
        #expect(stub.acceptedConnections == 200)
        // Every socket curl closed was really closed (after its sources were cancelled).
        #expect(await waitUntil { stub.openConnections == 0 })
        // Other tests open sockets meanwhile (spawned servers, Redis, binaries: dozens at once in a
        // parallel run), so wait for the count to settle below a bound that leaves them room; a
        // leak of this test's sockets would be one per request, 200, and would not settle.
        func openFDs() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0 }
        #expect(await waitUntil(timeout: 20) { openFDs() - fdsBefore < 100 }, "fds before \(fdsBefore), now \(openFDs())")
    }
}
