import Base
import Cache
import Dispatch
import Foundation
import HTTPClientTestSupport
import Rates
import Synchronization
import TestSupport
import Testing
@testable import Almanac
#if canImport(Glibc)
import Glibc
#endif

// Full-stack harness: the real `AlmanacApp` (production plugins: real HTTPServer, real
// `CurlHTTPClient`) on 127.0.0.1 port 0, every provider pointed at one `StubUpstream` on
// 127.0.0.1, and a raw-socket HTTP/1.1 client. Everything is bounded by deadlines.

// MARK: - Upstream answers (the provider formats of docs/rates.md and docs/books.md, as recorded in Tests/RatesTests and Tests/BooksTests)

enum FullStackFixtures {
    static let coinbasePath = "/v2/exchange-rates"
    static let coingeckoPath = "/api/v3/simple/price"
    static let googlePath = "/books/v1/volumes"
    static let openLibraryPath = "/api/books"

    static let coinbase = #"{"data":{"currency":"BTC","rates":{"USD":"91234.56","EUR":"84000.12","GBP":"72000.5","JPY":"13700000","ETH":"29.8"}}}"#
    /// What coinbase answers after a refresh: every number differs.
    static let coinbaseRefreshed = #"{"data":{"currency":"BTC","rates":{"USD":"95000","EUR":"88000","GBP":"76000","JPY":"14000000","ETH":"30"}}}"#
    static let coingecko = #"{"bitcoin":{"usd":90000.5,"eur":83000.25,"gbp":71000}}"#

    /// 978-0-306-40615-7 / 0-306-40615-2: the ISBN example of the standard.
    static let isbn13 = "9780306406157"
    static let isbn10 = "0306406152"
    /// A valid ISBN no provider knows.
    static let unknown13 = "9780140449136"
    static let coverPath = "/b/id/8090534-L.jpg"
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0xFF, 0xD9]

    static func googleTarget(_ isbn13: String) -> String { "\(googlePath)?q=isbn:\(isbn13)" }
    static func openLibraryTarget(_ isbn13: String) -> String {
        "\(openLibraryPath)?bibkeys=ISBN:\(isbn13)&format=json&jscmd=data"
    }

    /// Google's answer for the book: no cover and no page count, so Open Library is asked to
    /// fill them (the merged `source` is `google-books+open-library`). A first item for another
    /// book checks that the matching item is picked, not `items[0]`.
    static let google = """
    {"kind":"books#volumes","totalItems":2,"items":[
      {"kind":"books#volume","volumeInfo":{"title":"Some Other Book","authors":["Nobody"],
        "industryIdentifiers":[{"type":"ISBN_13","identifier":"9780135956977"}]}},
      {"kind":"books#volume","volumeInfo":{"title":"Fundamentals of Statistics","subtitle":"A primer",
        "authors":["Ada Example","Bo Sample"],"publisher":"Example Press","publishedDate":"1986",
        "description":"Numbers, explained.",
        "industryIdentifiers":[{"type":"ISBN_10","identifier":"0-306-40615-2"},{"type":"ISBN_13","identifier":"9780306406157"}],
        "categories":["Mathematics"],"language":"en"}}]}
    """

    static let openLibrary = """
    {"ISBN:9780306406157":{"title":"Fundamentals of statistics","authors":[{"name":"A. Example"}],
      "publishers":[{"name":"Example Press Ltd"}],"publish_date":"1986","number_of_pages":321,
      "subjects":[{"name":"Statistics"}],
      "cover":{"small":"https://covers.openlibrary.org/b/id/8090534-S.jpg",
               "medium":"https://covers.openlibrary.org/b/id/8090534-M.jpg",
               "large":"https://covers.openlibrary.org/b/id/8090534-L.jpg"}}}
    """
    static let openLibraryNotFound = "{}"

    /// Routes every provider's normal answer on `stub`.
    static func scriptAll(_ stub: StubUpstream) {
        stub.route(coinbasePath, .json(coinbase))
        stub.route(coingeckoPath, .json(coingecko))
        stub.route(googlePath, .json(UpstreamFixtures.googleNotFound))
        stub.route(openLibraryPath, .json(openLibraryNotFound))
        stub.route(googleTarget(isbn13), .json(google))
        stub.route(openLibraryTarget(isbn13), .json(openLibrary))
        stub.route(coverPath, StubResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: jpeg))
        HistoryStub.script(stub)
    }
}

// MARK: - The app under test

/// One running app wired to one stub upstream. Use `FullStack.run { … }`, which always shuts
/// both down, even when the test throws.
final class FullStack: Sendable {
    static let adminToken = "full-stack-admin-token"

    let stub: StubUpstream
    let app: AlmanacApp
    let port: Int
    let logs: MemoryLogSink

    /// `defaults`: the configuration's defaults, provider registries included (a test that
    /// adds a provider hands its own; the standard build's otherwise).
    init(defaults: AlmanacConfiguration = AlmanacConfiguration(), configure: (inout AlmanacConfiguration) -> Void = { _ in },
         script: (StubUpstream) -> Void = FullStackFixtures.scriptAll) throws {
        let stub = try StubUpstream()
        script(stub)
        var config = defaults
        config.server.http.host = "127.0.0.1"
        config.server.http.port = 0
        config.server.http.shutdownGraceSeconds = 3
        config.server.adminToken = FullStack.adminToken
        config.upstream.client.retries = 0
        config.upstream.client.connectTimeoutMs = 2000
        config.upstream.client.timeoutMs = 10000
        // Every registered provider at the stub (the registry's listing, covers included).
        config.pointEveryProvider(at: stub.baseURL)
        // The index off unless a test turns it on (`withIndex`): these tests pin the chain's
        // own numbers and upstream request counts; the index has its own (`FullStackIndexTests`).
        config.rates.index.providers = []
        configure(&config)
        let logs = MemoryLogSink()
        let app = AlmanacApp(configuration: config, plugins: .standard, logSink: logs)
        do {
            port = try app.start()
        } catch {
            stub.stop()
            throw error
        }
        self.stub = stub
        self.app = app
        self.logs = logs
    }

    static func run(defaults: AlmanacConfiguration = AlmanacConfiguration(),
                    configure: (inout AlmanacConfiguration) -> Void = { _ in },
                    script: (StubUpstream) -> Void = FullStackFixtures.scriptAll,
                    _ body: (FullStack) async throws -> Void) async throws {
        let stack = try FullStack(defaults: defaults, configure: configure, script: script)
        do {
            try await body(stack)
        } catch {
            await stack.stop()
            throw error
        }
        await stack.stop()
    }

    func stop() async {
        stub.stop()
        await app.shutdown()
    }

    /// A new connection for this app.
    func connect(timeout: Double = 15) throws -> RawHTTPClient { try RawHTTPClient(port: port, timeout: timeout) }

    /// One request on a fresh connection (closed afterwards).
    func get(_ target: String, method: String = "GET", headers: [String] = []) async throws -> RawHTTPResponse {
        let client = try connect()
        try await client.request(method, target, extra: headers)
        return try await client.readResponse(head: method == "HEAD")
    }

    func count(_ path: String) -> Int { stub.requestCount(for: path) }

    func cacheStats(_ namespace: String) -> CacheStats {
        app.cache.stats()[namespace] ?? CacheStats()
    }
}

// MARK: - A raw HTTP/1.1 client (shared, in `TestSupport`)

typealias Deadline = TestDeadline

extension RawHTTPResponse {
    /// Exact JSON (numbers as their literal text).
    var json: JSONValue? { try? JSONParser.parse(body) }
    /// Top-level object keys, sorted.
    var keys: [String] { json.map(FullStack.keys) ?? [] }
}

extension FullStack {
    static func keys(_ value: JSONValue?) -> [String] {
        guard case let .object(members)? = value else { return [] }
        return members.keys.sorted()
    }
}

// MARK: - Stub helpers

/// A gate that stub handlers (running on the stub's connection threads) block on until the
/// test opens it; it counts the threads waiting. Bounded: a waiter gives up after `limit`.
final class ThreadGate: Sendable {
    private let state = Mutex<(open: Bool, waiting: Int)>((false, 0))
    private let limit: Double

    init(limit: Double = 20) { self.limit = limit }

    var waiting: Int { state.withLock { $0.waiting } }

    func open() { state.withLock { $0.open = true } }

    /// Blocks the calling (stub connection) thread until open, or `limit` seconds.
    func wait() {
        state.withLock { $0.waiting += 1 }
        defer { state.withLock { $0.waiting -= 1 } }
        let deadline = Deadline(seconds: limit)
        while !state.withLock({ $0.open }), !deadline.passed { usleep(1000) }
    }
}

// MARK: - Problem and metrics helpers

extension RawHTTPResponse {
    /// Checks the RFC 9457 shape every error has (docs/problems.md) and returns its detail.
    @discardableResult
    func expectProblem(_ status: Int, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        #expect(self.status == status, "status \(self.status): \(text)", sourceLocation: sourceLocation)
        #expect(header("Content-Type") == "application/problem+json", sourceLocation: sourceLocation)
        #expect(keys == ["detail", "status", "title", "type"], sourceLocation: sourceLocation)
        #expect(json?["status"] == .number(String(status)), sourceLocation: sourceLocation)
        guard case let .string(detail)? = json?["detail"] else { return "" }
        return detail
    }
}

/// The value of the Prometheus sample `name{labels…}`: the first line naming the metric with
/// every given `label="value"` pair.
func metricValue(_ text: String, _ name: String, _ labels: [String: String] = [:]) -> Double? {
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        guard line.hasPrefix(name + "{") || line.hasPrefix(name + " ") else { continue }
        guard labels.allSatisfy({ line.contains("\($0.key)=\"\($0.value)\"") }) else { continue }
        guard let value = line.split(separator: " ").last.flatMap({ Double($0) }) else { continue }
        return value
    }
    return nil
}

extension FullStack {
    /// Stewardship out of the way, for tests that send many upstream requests on purpose to
    /// prove something else (redirect tricks, canaries): no budgets, no breaker. The steward's
    /// own behaviour is tested with its production settings in `FullStackStewardTests`.
    static func unthrottled(_ c: inout AlmanacConfiguration) {
        for id in c.rates.endpoints.descriptors.map(\.id) { c.rates.endpoints[id].budget = .unlimited }
        for id in c.history.endpoints.descriptors.map(\.id) { c.history.endpoints[id].budget = .unlimited }
        for id in c.rates.index.endpoints.descriptors.map(\.id) { c.rates.index.endpoints[id].budget = .unlimited }
        for id in c.books.endpoints.descriptors.map(\.id) { c.books.endpoints[id].budget = .unlimited }
        c.upstream.steward.limits.breakerFailures = 1000
    }
}
