import TestSupport
import Foundation
import HTTPClientTestSupport
import Rates
import Testing
@testable import Almanac
#if canImport(Glibc)
import Glibc
#endif

/// The built `almanac` executable (`swift build --build-tests` builds every product).
enum AlmanacBinary {
    static let url = repositoryRoot.appendingPathComponent(".build/debug/almanac")
    static var exists: Bool { FileManager.default.isExecutableFile(atPath: url.path) }

    /// A spawned process with its output going to files in a fresh directory, which is also
    /// its working directory (so no `config/almanac.json` is picked up by accident). Started
    /// with a clean signal state and stopped by its PID (`ChildProcess`).
    final class Spawned: Sendable {
        let child: ChildProcess
        let directory: URL

        init(_ arguments: [String], environment: [String: String]) throws {
            directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("almanac-full-stack-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // Only what the test sets: no ALMANAC_* or PORT from the caller's environment.
            child = try ChildProcess(AlmanacBinary.url.path, arguments,
                                     environment: environment.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a },
                                     directory: directory.path,
                                     stdout: directory.appendingPathComponent("stdout").path,
                                     stderr: directory.appendingPathComponent("stderr").path)
        }

        var stdout: String { (try? String(contentsOf: directory.appendingPathComponent("stdout"), encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOf: directory.appendingPathComponent("stderr"), encoding: .utf8)) ?? "" }

        var isRunning: Bool { child.isRunning }

        /// Waits for the exit within `timeout` seconds; nil (and the process killed) if it
        /// is still running then. A signal's end is minus its number.
        func exitStatus(within timeout: Double) async -> Int32? {
            guard let status = await child.exitStatus(within: timeout) else {
                kill()
                return nil
            }
            return status
        }

        func signal(_ sig: Int32) { child.signal(sig) }

        /// SIGKILL, for cleanup when a test failed midway.
        func kill() { child.kill() }

        func removeFiles() {
            kill()
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// `almanac serve` on 127.0.0.1:`port`, every provider pointed at `stub`, no retries,
    /// plus `extra` settings.
    static func serve(port: Int, stub: StubUpstream, _ extra: [String: String] = [:]) throws -> Spawned {
        try Spawned(["serve"], environment: stubEnvironment(stub.baseURL).merging([
            "ALMANAC_SERVER_HOST": "127.0.0.1",
            "ALMANAC_SERVER_PORT": String(port),
            "ALMANAC_UPSTREAM_RETRIES": "0",
            // No index unless asked for: these tests count the chain's requests.
            "ALMANAC_RATES_INDEX_PROVIDERS": "",
        ]) { _, new in new }.merging(extra) { _, new in new })
    }

    /// The environment that points every provider of `providers` (the registry's listing) at
    /// `stubURL`, covers included, and with `unbudgeted` lifts its steward budget: a provider
    /// added to a registry is wired to the stub here with no edit.
    static func stubEnvironment(_ stubURL: String, unbudgeted: Bool = false,
                                providers: [ProviderListing] = ProviderListing.all()) -> [String: String] {
        var env: [String: String] = [:]
        for provider in providers {
            for variable in provider.baseURLEnvironment { env[variable] = stubURL }
            if unbudgeted { env[provider.budgetEnvironment] = "0" }
        }
        return env
    }

    /// Waits until `/healthz` on `port` answers 200; records the process's output as an issue
    /// and returns false when it never does.
    static func waitUntilServing(_ spawned: Spawned, port: Int) async -> Bool {
        let up = await waitUntil(timeout: 30) {
            guard let client = try? RawHTTPClient(port: port, timeout: 5) else { return false }
            guard (try? await client.request("GET", "/healthz")) != nil,
                  let r = try? await client.readResponse() else { return false }
            return r.status == 200
        }
        if !up { Issue.record("stdout: \(spawned.stdout)\nstderr: \(spawned.stderr)") }
        return up
    }

    /// `almanac serve` on 127.0.0.1:`port` (nil: a free port) with `environment` added, once
    /// `/healthz` answers 200 (30 s at most; the test fails with the child's stderr otherwise).
    /// The caller kills and cleans up the returned process.
    /// With no `port` given, a start refused with "already in use" is retried on another free
    /// port (up to three times): a port checked free can still be taken before the child binds it.
    static func serving(_ environment: [String: String], port: Int? = nil) async throws -> (spawned: Spawned, port: Int) {
        if let port { return try await serving(environment, on: port) }
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await serving(environment, on: try freeLoopbackPort())
            } catch let failure as RawHTTPClient.Failure where attempt < 3 && failure.description.contains("already in use") {
                continue
            }
        }
    }

    /// `almanac serve` on 127.0.0.1:`port`, once `/healthz` answers 200 (see `serving(_:port:)`).
    private static func serving(_ environment: [String: String], on port: Int) async throws -> (spawned: Spawned, port: Int) {
        // No index unless the environment asks for one (its exchanges would be called at their real URLs).
        let spawned = try Spawned(["serve"], environment: ["ALMANAC_RATES_INDEX_PROVIDERS": ""].merging(environment) { _, given in given }.merging([
            "ALMANAC_SERVER_HOST": "127.0.0.1", "ALMANAC_SERVER_PORT": String(port),
        ]) { _, fixed in fixed })
        var up = false
        // Waits for a 200, or for the process to exit (a configuration error: no point waiting).
        _ = await waitUntil(timeout: 30) {
            guard spawned.isRunning else { return true }
            guard let client = try? RawHTTPClient(port: port, timeout: 5),
                  (try? await client.request("GET", "/healthz")) != nil,
                  let r = try? await client.readResponse() else { return false }
            up = r.status == 200
            return up
        }
        guard up else {
            let stderr = spawned.stderr
            spawned.kill()
            spawned.removeFiles()
            throw RawHTTPClient.Failure(description: "almanac serve did not come up: \(stderr)")
        }
        return (spawned, port)
    }

    /// Runs the binary to completion (bounded) and returns its status and output.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws
        -> (status: Int32?, stdout: String, stderr: String) {
        let spawned = try Spawned(arguments, environment: environment)
        defer { spawned.removeFiles() }
        let status = await spawned.exitStatus(within: 30)
        return (status, spawned.stdout, spawned.stderr)
    }
}

extension FullStackTests {
    /// The real executable: command line, configuration errors, serving and draining on SIGTERM.
    @Suite(.enabled(if: AlmanacBinary.exists, "no executable at .build/debug/almanac: run `swift build --build-tests` first"))
    struct Binary {
        /// `almanac 0.1.0 (commit 1a2b3c4d5e6f)`: the commit the build was given (`make` sets
        /// ALMANAC_COMMIT from git for every build, tests included), else "unknown".
        @Test func versionNamesTheCommit() async throws {
            let r = try await AlmanacBinary.run(["--version"])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout == "almanac \(AlmanacVersion.string) (commit \(AlmanacVersion.commit))\n", "\(r.stdout)")
            let commit = AlmanacVersion.commit
            #expect(commit == "unknown" || commit.unicodeScalars.allSatisfy { $0.properties.isASCIIHexDigit || $0 == "-" || $0.properties.isAlphabetic },
                    "\(commit)")
            if let given = ProcessInfo.processInfo.environment["ALMANAC_COMMIT"], !given.isEmpty {
                #expect(commit == given, "the build was told \(given)")
            }
        }

        @Test func checkConfigNamesTheBadKey() async throws {
            let r = try await AlmanacBinary.run(["check-config"], environment: [
                "ALMANAC_SERVER_PORT": "not-a-port",
                "ALMANAC_RATES_TTL_SECONDS": "-5",
            ])
            #expect(r.status == 2, "stdout: \(r.stdout) stderr: \(r.stderr)")
            #expect(r.stderr.contains("server.port"), "\(r.stderr)")
            #expect(r.stderr.contains("rates.ttlSeconds"), "\(r.stderr)")

            let good = try await AlmanacBinary.run(["check-config"], environment: [
                "ALMANAC_SERVER_ADMIN_TOKEN": "secret-admin-token",
            ])
            #expect(good.status == 0, "\(good.stderr)")
            #expect(good.stdout.contains("\"server\""))
            #expect(!good.stdout.contains("secret-admin-token"), "secrets are redacted")
        }

        /// The reproduction of issue 12 (item 4), on the real executable.
        @Test func checkConfigNeverPrintsAPasswordFromAURL() async throws {
            let r = try await AlmanacBinary.run(["check-config"], environment: [
                "ALMANAC_RATES_COINBASE_BASE_URL": "http://user:pass-w0rd-42@internal-host:9000",
            ])
            #expect(r.status == 2, "stdout: \(r.stdout) stderr: \(r.stderr)")
            #expect(r.stderr.contains("rates.coinbase.baseUrl") && r.stderr.contains("http://***@internal-host:9000"), "\(r.stderr)")
            #expect(!r.stderr.contains("pass-w0rd-42") && !r.stdout.contains("pass-w0rd-42"))
        }

        @Test func servesThenDrainsOnSIGTERM() async throws {
            let gate = ThreadGate(limit: 30)
            let stub = try StubUpstream()
            defer { stub.stop() }
            FullStackFixtures.scriptAll(stub)
            stub.route(F.coinbasePath) { _ in
                gate.wait()
                return .json(F.coinbase)
            }
            let port = try freeLoopbackPort()
            let grace = 5.0
            let spawned = try AlmanacBinary.serve(port: port, stub: stub, [
                "ALMANAC_SERVER_SHUTDOWN_GRACE_SECONDS": String(Int(grace)),
                "ALMANAC_UPSTREAM_TIMEOUT_MS": "30000",
            ])
            defer {
                gate.open()
                spawned.kill()
                spawned.removeFiles()
            }
            guard await AlmanacBinary.waitUntilServing(spawned, port: port) else { return }

            // A slow request in flight (held at the upstream) and an idle keep-alive connection.
            let inFlight = try RawHTTPClient(port: port, timeout: 30)
            try await inFlight.request("GET", "/v1/rates/USD", extra: ["X-Request-ID: in-flight"])
            #expect(await waitUntil { gate.waiting == 1 }, "the request reaching the upstream")
            let idle = try RawHTTPClient(port: port, timeout: 30)
            try await idle.request("GET", "/healthz")
            #expect(try await idle.readResponse().status == 200)

            spawned.signal(SIGTERM)
            let signalled = Deadline(seconds: grace + 2)

            // Draining: new connections are refused, or readiness says 503.
            var drainEvidence = ""
            let waited = await waitUntil {
                do {
                    let client = try RawHTTPClient(port: port, timeout: 5)
                    try await client.request("GET", "/readyz")
                    let r = try await client.readResponse()
                    if r.status == 503 { drainEvidence = "readyz 503" }
                    #expect(r.status == 200 || r.status == 503, "\(r.status)")
                } catch {
                    // Refused, reset, or closed unanswered: not accepting any more.
                    drainEvidence = "new connection: \(error)"
                }
                return !drainEvidence.isEmpty
            }
            #expect(waited, "readiness 503 or refused connections while draining")
            #expect(!drainEvidence.isEmpty)
            #expect(spawned.isRunning, "still finishing the in-flight request")

            gate.open()
            let answered = try await inFlight.readResponse()
            #expect(answered.status == 200, "\(answered.text)")
            #expect(answered.header("X-Request-ID") == "in-flight")
            #expect(answered.json?["rate"] == .number("91234.56"))
            #expect(answered.header("Connection")?.lowercased() == "close")
            inFlight.close()

            let remaining = max(0.1, Double(signalled.end - min(signalled.end, DispatchTime.now().uptimeNanoseconds)) / 1e9)
            let status = await spawned.exitStatus(within: remaining)
            #expect(status == 0, "exit status \(String(describing: status)); stderr: \(spawned.stderr)")
            // The idle connection was closed by the drain.
            #expect(await idle.isClosedByPeer(within: 5))
            let log = spawned.stdout
            #expect(log.contains("\"in-flight\""), "access log line for the drained request")
            #expect(log.contains("draining"))
        }

        /// An orchestrator's view: SIGHUP is survived with a log line; SIGTERM with
        /// `server.shutdownDelaySeconds` keeps accepting and serving new connections while
        /// `/readyz` says 503 (with `Retry-After`), then drains and exits 0.
        @Test func sighupIsSurvivedAndSIGTERMWaitsOutTheDelay() async throws {
            let stub = try StubUpstream()
            defer { stub.stop() }
            FullStackFixtures.scriptAll(stub)
            let port = try freeLoopbackPort()
            // Long enough that the checks below fit inside the delay on a busy two-core machine
            // (each is a few requests); the test waits it out once, at the end.
            let delay = 8.0
            let spawned = try AlmanacBinary.serve(port: port, stub: stub, [
                "ALMANAC_SERVER_SHUTDOWN_DELAY_SECONDS": String(Int(delay)),
                "ALMANAC_SERVER_SHUTDOWN_GRACE_SECONDS": "3",
            ])
            defer {
                spawned.kill()
                spawned.removeFiles()
            }
            func get(_ target: String) async throws -> RawHTTPResponse {
                let client = try RawHTTPClient(port: port, timeout: 5)
                try await client.request("GET", target)
                return try await client.readResponse()
            }
            guard await AlmanacBinary.waitUntilServing(spawned, port: port) else { return }
            // An idle keep-alive connection opened before the signal.
            let idle = try RawHTTPClient(port: port, timeout: 30)
            try await idle.request("GET", "/healthz")
            #expect(try await idle.readResponse().status == 200)

            spawned.signal(SIGHUP)
            #expect(await waitUntil { spawned.stdout.contains("SIGHUP ignored") }, "the SIGHUP log line")
            #expect(spawned.isRunning, "SIGHUP does not end the process")
            #expect(try await get("/readyz").status == 200, "nor start a shutdown")

            spawned.signal(SIGTERM)
            let notReady = await waitUntil { (try? await get("/readyz"))?.status == 503 }
            #expect(notReady)
            // Still accepting and serving during the delay: several new connections, each
            // answered in full, and the keep-alive connection from before still works.
            var servedDuringDelay = 0
            for _ in 0..<3 {
                let ready = try await get("/readyz")
                #expect(ready.status == 503)
                #expect(ready.header("Retry-After") == "1")
                let rates = try await get("/v1/rates/USD")
                #expect(rates.status == 200)
                #expect(rates.json?["rate"] == .number("91234.56"))
                #expect(rates.header("Connection")?.lowercased() != "close", "serving as usual")
                servedDuringDelay += 1
            }
            #expect(servedDuringDelay == 3)
            try await idle.request("GET", "/v1/currencies")
            #expect(try await idle.readResponse().status == 200)
            #expect(spawned.isRunning)

            let status = await spawned.exitStatus(within: delay + 3 + 10)
            #expect(status == 0, "exit status \(String(describing: status)); stderr: \(spawned.stderr)")
            #expect(await idle.isClosedByPeer(within: 5), "the drain closed the idle connection")
            let log = spawned.stdout
            let lines = ["SIGHUP ignored", "shutdown requested", "shutdown delay", "draining", "stopped"]
            let positions = lines.map { log.range(of: $0)?.lowerBound }
            #expect(positions.allSatisfy { $0 != nil }, "\(log)")
            let found = positions.compactMap { $0 }
            #expect(found == found.sorted(), "in this order: \(lines)")
        }
    }
}
