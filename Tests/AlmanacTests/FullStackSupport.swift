import Cache
import Dispatch
import Foundation
import HTTPClientTestSupport
import Rates
import Synchronization
import Testing
@testable import Almanac
#if canImport(Glibc)
import Glibc
#endif

// Full-stack harness: the real `AlmanacApp` (production plugins: real HTTPServer, real
// `CurlHTTPClient`) on 127.0.0.1 port 0, every provider pointed at one `StubUpstream` on
// 127.0.0.1, and a raw-socket HTTP/1.1 client. Everything is bounded by deadlines.

// MARK: - Upstream answers (API.md §2 shapes, as recorded in Tests/RatesTests and Tests/BooksTests)

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
    static let googleNotFound = #"{"kind":"books#volumes","totalItems":0}"#

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
        stub.route(googlePath, .json(googleNotFound))
        stub.route(openLibraryPath, .json(openLibraryNotFound))
        stub.route(googleTarget(isbn13), .json(google))
        stub.route(openLibraryTarget(isbn13), .json(openLibrary))
        stub.route(coverPath, StubResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: jpeg))
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

    init(configure: (inout AlmanacConfiguration) -> Void = { _ in },
         script: (StubUpstream) -> Void = FullStackFixtures.scriptAll) throws {
        let stub = try StubUpstream()
        script(stub)
        var config = AlmanacConfiguration()
        config.server.host = "127.0.0.1"
        config.server.port = 0
        config.server.shutdownGraceSeconds = 3
        config.server.adminToken = FullStack.adminToken
        config.upstream.retries = 0
        config.upstream.connectTimeoutMs = 2000
        config.upstream.timeoutMs = 10000
        config.rates.coinbase.baseUrl = stub.baseURL
        config.rates.coingecko.baseUrl = stub.baseURL
        config.rates.coindesk.baseUrl = stub.baseURL
        config.books.googleBooks.baseUrl = stub.baseURL
        config.books.openLibrary.baseUrl = stub.baseURL
        config.books.openLibrary.coversBaseUrl = stub.baseURL
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

    static func run(configure: (inout AlmanacConfiguration) -> Void = { _ in },
                    script: (StubUpstream) -> Void = FullStackFixtures.scriptAll,
                    _ body: (FullStack) async throws -> Void) async throws {
        let stack = try FullStack(configure: configure, script: script)
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
    func connect(timeout: Double = 15) throws -> WireClient { try WireClient(port: port, timeout: timeout) }

    /// One request on a fresh connection (closed afterwards).
    func get(_ target: String, method: String = "GET", headers: [String] = []) async throws -> WireResponse {
        let client = try connect()
        try await client.request(method, target, extra: headers)
        return try await client.readResponse(head: method == "HEAD")
    }

    func count(_ path: String) -> Int { stub.requestCount(for: path) }

    func cacheStats(_ namespace: String) -> CacheStats {
        app.cache.stats()[namespace] ?? CacheStats()
    }
}

// MARK: - A raw HTTP/1.1 client

/// A response as read off the wire.
struct WireResponse: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    func headerValues(_ name: String) -> [String] { headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1) }
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

/// A raw TCP client: exact bytes out (malformed or pipelined requests are possible), responses
/// read against a deadline. Non-blocking socket with `Task.sleep` polls, so the cooperative
/// pool the server's pending handlers run on is never blocked.
final class WireClient: @unchecked Sendable { // used by one task at a time
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let fd: Int32
    private var buffer: [UInt8] = []
    private let timeout: Double

    init(port: Int, timeout: Double = 15) throws {
        // Connected before any stored property is set: were `init` to throw after that,
        // `deinit` would run and close the descriptor a second time — by then perhaps a
        // number another test's socket was given.
        fd = try WireClient.connected(port: port)
        self.timeout = timeout
    }

    /// A non-blocking socket connected to 127.0.0.1:`port`; closed again when connecting fails.
    private static func connected(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            let code = errno
            Glibc.close(fd)
            throw Failure(description: code == ECONNREFUSED ? "refused" : "connect: errno \(code)")
        }
        _ = fcntl(fd, F_SETFL, O_NONBLOCK)
        return fd
    }

    deinit { Glibc.close(fd) }

    /// Shuts the socket down both ways now (the descriptor is released by `deinit`).
    func close() { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    func send(_ text: String) async throws { try await send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) async throws {
        let deadline = Deadline(seconds: timeout)
        var nap: UInt64 = 250_000
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if n > 0 {
                offset += n
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                try await deadline.pause("send", nap: &nap)
            } else {
                throw Failure(description: "send: errno \(errno)")
            }
        }
    }

    static func requestText(_ method: String, _ target: String, extra: [String] = []) -> String {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: almanac-full-stack-tests\r\n"
        for line in extra { text += line + "\r\n" }
        return text + "\r\n"
    }

    func request(_ method: String = "GET", _ target: String, extra: [String] = []) async throws {
        try await send(Self.requestText(method, target, extra: extra))
    }

    /// Reads one response (Content-Length framed, as almanac always frames).
    func readResponse(head: Bool = false) async throws -> WireResponse {
        let deadline = Deadline(seconds: timeout)
        while true {
            if let end = headEnd() {
                let headText = String(decoding: buffer[0..<end], as: UTF8.self)
                var lines = headText.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
                guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
                    throw Failure(description: "bad status line in \(headText)")
                }
                var headers: [(String, String)] = []
                for line in lines where !line.isEmpty {
                    guard let colon = line.firstIndex(of: ":") else { throw Failure(description: "bad header line \(line)") }
                    headers.append((String(line[..<colon]),
                                    String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
                }
                let hasBody = !head && status >= 200 && status != 204 && status != 304
                let lengthText = headers.first { $0.0.lowercased() == "content-length" }?.1
                let length = hasBody ? Int(lengthText ?? "0") ?? 0 : 0
                let total = end + 4 + length
                while buffer.count < total {
                    guard try await fill(deadline) else { throw Failure(description: "EOF inside a body") }
                }
                let body = Array(buffer[(end + 4)..<total])
                buffer.removeSubrange(0..<total)
                return WireResponse(status: status, headers: headers, body: body)
            }
            guard try await fill(deadline) else {
                throw Failure(description: buffer.isEmpty ? "EOF" : "EOF before a complete response (\(buffer.count) bytes)")
            }
        }
    }

    /// Bytes received but not yet consumed by `readResponse` (none after a HEAD answer).
    var unread: Int { buffer.count }

    /// True when nothing more arrives within `seconds` (used after HEAD: no stray body bytes).
    func receivesNothing(within seconds: Double) async throws -> Bool {
        let deadline = Deadline(seconds: seconds)
        do {
            return try await fill(deadline) == false ? buffer.isEmpty : false
        } catch let failure as Failure where failure.description.hasSuffix("timed out") {
            return buffer.isEmpty
        }
    }

    /// True when the server closes the connection (EOF or reset) within `seconds`, with no
    /// further bytes first.
    func isClosedByPeer(within seconds: Double) async -> Bool {
        guard buffer.isEmpty else { return false }
        do {
            return try await fill(Deadline(seconds: seconds)) == false
        } catch let failure as Failure {
            return failure.description == "reset"
        } catch {
            return false
        }
    }

    /// Appends what arrives; false on EOF. Throws on timeout and on reset.
    private func fill(_ deadline: Deadline) async throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var nap: UInt64 = 250_000
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                return true
            }
            if n == 0 { return false }
            switch errno {
            case EAGAIN, EWOULDBLOCK: try await deadline.pause("recv", nap: &nap)
            case ECONNRESET: throw Failure(description: "reset")
            default: throw Failure(description: "recv: errno \(errno)")
            }
        }
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for i in 0...(buffer.count - 4)
        where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
            return i
        }
        return nil
    }
}

/// A monotonic deadline whose `pause` sleeps briefly (without blocking a thread) or throws.
struct Deadline: Sendable {
    let end: UInt64

    init(seconds: Double) { end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9) }

    var passed: Bool { DispatchTime.now().uptimeNanoseconds >= end }

    /// Sleeps `nap` nanoseconds, then doubles it (up to 8 ms), so many idle waiters stay cheap.
    func pause(_ what: String, nap: inout UInt64) async throws {
        guard !passed else { throw WireClient.Failure(description: "\(what) timed out") }
        try await Task.sleep(nanoseconds: nap)
        nap = min(nap * 2, 8_000_000)
    }
}

/// Waits until `condition` holds, polling against a deadline; records an issue naming `what`
/// and returns false when the deadline passes first.
@discardableResult
func eventually(_ what: String, timeout: Double = 15, sourceLocation: SourceLocation = #_sourceLocation,
                _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Deadline(seconds: timeout)
    while !deadline.passed {
        if try await condition() { return true }
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
    if try await condition() { return true }
    Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
    return false
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

extension WireResponse {
    /// Checks the RFC 9457 shape every error has (API.md §4) and returns its detail.
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

/// A port that was free a moment ago (bind 0, read it, close): for the spawned binary.
func freeLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw WireClient.Failure(description: "socket: errno \(errno)") }
    defer { Glibc.close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let rc = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa -> Int32 in
            guard bind(fd, sa, length) == 0 else { return -1 }
            return getsockname(fd, sa, &length)
        }
    }
    guard rc == 0 else { throw WireClient.Failure(description: "bind: errno \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
}
