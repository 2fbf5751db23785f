import Foundation
import HTTPClientTestSupport
import TestSupport
import Testing
@testable import Almanac

extension FullStackTests.Binary {
    /// Configuration errors from the real executable say how to fix them.
    @Test func configurationErrorsSayHowToFixThem() async throws {
        let typo = try await AlmanacBinary.run(["check-config"], environment: ["ALMANAC_SERVER_PROT": "8081"])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("ALMANAC_SERVER_PROT: unknown environment variable") && typo.stderr.contains("did you mean ALMANAC_SERVER_PORT?"),
                "\(typo.stderr)")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-config-dir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dir = try await AlmanacBinary.run(["check-config", "--config", directory.path])
        #expect(dir.status == 2)
        #expect(dir.stderr.contains("is a directory, not a file") && !dir.stderr.contains("NSCocoaErrorDomain"), "\(dir.stderr)")

        let file = directory.appendingPathComponent("almanac.json")
        try Data("{\n  \"server\": {\n    \"port\": 80,,\n  }\n}\n".utf8).write(to: file)
        let syntax = try await AlmanacBinary.run(["check-config", "--config", file.path])
        #expect(syntax.status == 2)
        #expect(syntax.stderr.contains("is not valid JSON: expected a member name at line 3, column 16"), "\(syntax.stderr)")

        // A port another process holds: serve exits 1 naming the settings to change.
        let (holder, held) = try await AlmanacBinary.serving(["ALMANAC_LOG_LEVEL": "error"])
        defer {
            holder.kill()
            holder.removeFiles()
        }
        let port = String(held)
        let busy = try await AlmanacBinary.run(["serve"], environment: ["ALMANAC_SERVER_HOST": "127.0.0.1", "ALMANAC_SERVER_PORT": port])
        #expect(busy.status == 1)
        #expect(busy.stderr.contains("port \(port) on 127.0.0.1 is already in use") && busy.stderr.contains("server.port"), "\(busy.stderr)")
    }

    /// What a browser, a reverse proxy and an operator meet, against the real executable:
    /// a CORS preflight, the client address from a trusted X-Forwarded-For, an upstream failure
    /// logged at warn with the request id, and the whole-chain deadline.
    @Test func browsersProxiesAndOperators() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        FullStackFixtures.scriptAll(stub)
        let (spawned, port) = try await AlmanacBinary.serving(AlmanacBinary.stubEnvironment(stub.baseURL).merging([
            "ALMANAC_SERVER_TRUST_FORWARDED_HEADERS": "true",
            "ALMANAC_LOG_LEVEL": "info",
            "ALMANAC_UPSTREAM_RETRIES": "0",
            "ALMANAC_UPSTREAM_TIMEOUT_MS": "2000",
            "ALMANAC_UPSTREAM_REQUEST_DEADLINE_MS": "1000",
            "ALMANAC_RATES_TTL_SECONDS": "1",
            "ALMANAC_RATES_STALE_SECONDS": "60",
        ]) { _, given in given })
        defer {
            spawned.kill()
            spawned.removeFiles()
        }
        let client = try RawHTTPClient(port: port, timeout: 15)

        try await client.request("OPTIONS", "/v1/bpi/currentprice.json", extra: [
            "Origin: https://widget.example", "Access-Control-Request-Method: GET",
        ])
        let preflight = try await client.readResponse()
        #expect(preflight.status == 204)
        #expect(preflight.header("Access-Control-Allow-Origin") == "*")
        #expect(preflight.header("Access-Control-Allow-Methods") == "GET, HEAD")

        try await client.request("GET", "/v1/rates/USD", extra: ["X-Forwarded-For: 203.0.113.9, 198.51.100.7", "X-Request-ID: via-proxy"])
        #expect(try await client.readResponse().status == 200)
        #expect(await waitUntil() {
            spawned.stdout.split(separator: "\n").contains { $0.contains("\"via-proxy\"") && $0.contains("198.51.100.7") }
        }, "the access line with the proxy's client address")

        // The rates providers say stop (429): the cooldown is logged once; the cached table goes
        // stale, its refresh fails, and the stale table keeps being served with one warn line.
        stub.route(FullStackFixtures.coinbasePath, StubResponse(status: 429, headers: [("Retry-After", "30")], body: Array("{}".utf8)))
        stub.route(FullStackFixtures.coingeckoPath, StubResponse(status: 429, headers: [("Retry-After", "30")], body: Array("{}".utf8)))
        #expect(await waitUntil(timeout: 15) {
            guard (try? await client.request("GET", "/v1/rates/USD")) != nil,
                  let r = try? await client.readResponse() else { return false }
            return r.status == 200 && r.header("X-Cache") == "STALE"
                && spawned.stdout.contains("serving stale answers: refresh failed")
        }, "a STALE answer served while the providers cool down")
        let lines = spawned.stdout.split(separator: "\n")
        #expect(lines.filter { $0.contains("serving stale answers: refresh failed") }.count == 1)
        #expect(lines.contains { $0.contains("\"level\":\"warn\"") && $0.contains("cooldown") && $0.contains("\"provider\":\"coinbase\"") },
                "a provider entering its cooldown is a warn line")

        // Both providers hang: the client gets its answer by the chain's deadline (1 s), not after
        // each provider's own timeout in turn (2 × 2 s).
        stub.setFault(.hang)
        try await client.request("GET", "/v1/books/\(FullStackFixtures.isbn13)", extra: ["X-Request-ID: hung-up"])
        let started = Date()
        let timedOut = try await client.readResponse()
        let waited = Date().timeIntervalSince(started)
        #expect(timedOut.status == 504, "\(timedOut.text)")
        #expect(waited < 2.5, "waited \(waited) s: the deadline bounds the whole chain")
        #expect(!timedOut.text.contains("127.0.0.1"), "no upstream address in a public error")
        #expect(await waitUntil() {
            spawned.stdout.split(separator: "\n").contains {
                $0.contains("\"level\":\"warn\"") && $0.contains("upstream failed") && $0.contains("\"hung-up\"")
            }
        }, "a warn line per upstream failure with the request id")

        // google-books fails and open-library answers: the client gets its book, the operator
        // still gets the failure, under the client's request id.
        stub.setFault(nil)
        stub.setFault(.status(503), for: FullStackFixtures.googlePath)
        try await client.request("GET", "/v1/books/\(FullStackFixtures.isbn10)", extra: ["X-Request-ID: recovered"])
        #expect(try await client.readResponse().status == 200)
        #expect(await waitUntil() {
            spawned.stdout.split(separator: "\n").contains {
                $0.contains("\"level\":\"warn\"") && $0.contains("upstream failed") && $0.contains("\"recovered\"")
                    && $0.contains("google-books")
            }
        }, "a failure a later provider recovered is a warn line with the request id")
    }
}
