import Foundation
import Synchronization

/// A request as `StubUpstream` saw it.
public struct StubRequest: Sendable {
    public var method: String
    /// Path and query as sent, e.g. `/v2/exchange-rates?currency=BTC`.
    public var target: String
    public var path: String
    public var query: String?
    /// Lower-cased names.
    public var headers: [String: String]
}

/// What `StubUpstream` answers.
public struct StubResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int = 200, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func json(_ json: String, status: Int = 200) -> StubResponse {
        StubResponse(status: status, headers: [("Content-Type", "application/json")], body: Array(json.utf8))
    }

    public static func text(_ text: String, status: Int = 200) -> StubResponse {
        StubResponse(status: status, headers: [("Content-Type", "text/plain")], body: Array(text.utf8))
    }
}

/// A scriptable HTTP/1.1 upstream on 127.0.0.1 for services' tests, used with the real
/// `CurlHTTPClient`: routes by path (+query), counts requests per path and TCP connections, and
/// switches faults on and off at run time. Keep-alive, Content-Length framing.
///
/// Built on `RawStubServer` (one thread per connection) while the project's `HTTPServer` is
/// being written; the public API does not depend on which server is underneath.
public final class StubUpstream: Sendable {
    public typealias Handler = @Sendable (StubRequest) -> StubResponse

    /// A misbehaviour applied to matching requests instead of the route's answer.
    public enum Fault: Sendable, Equatable {
        /// Answer with this status and an empty JSON body.
        case status(Int)
        /// Never answer; hold the connection until the client gives up or the stub stops.
        case hang
        /// Answer with bytes that are not HTTP.
        case garbage
        /// Reset the connection (TCP RST) without answering.
        case reset
    }

    private enum Route: Sendable {
        case fixed(StubResponse)
        case sequence([StubResponse])
        case handler(Handler)
    }

    private struct State: Sendable {
        var routes: [String: Route] = [:]
        var prefixRoutes: [(prefix: String, handler: Handler)] = []
        var counts: [String: Int] = [:]
        var faults: [String: Fault] = [:]
        var globalFault: Fault?
        var log: [StubRequest] = []
    }

    /// Shared with the connection threads, which must not retain the stub itself.
    private final class Shared: Sendable {
        let state = Mutex(State())
    }

    private let shared = Shared()
    private let server: RawStubServer

    /// - Parameter address: the 127.0.0.x address to listen on.
    public init(address: String = "127.0.0.1") throws {
        let shared = self.shared
        server = try RawStubServer(address: address) { connection in
            StubUpstream.serve(connection, shared: shared)
        }
    }

    /// `http://127.0.0.1:PORT` (or the address given), the base URL to configure a provider with.
    public var baseURL: String { server.baseURL }
    public var port: Int { server.port }

    /// Answers `target` (a path, or path?query for an exact match that wins over the path).
    public func route(_ target: String, _ response: StubResponse) {
        shared.state.withLock { $0.routes[target] = .fixed(response) }
    }

    /// Answers successive requests with `responses` in order, repeating the last one.
    public func route(_ target: String, sequence responses: [StubResponse]) {
        precondition(!responses.isEmpty)
        shared.state.withLock { $0.routes[target] = .sequence(responses) }
    }

    /// Answers `target` by calling `handler` (on a connection thread).
    public func route(_ target: String, handler: @escaping Handler) {
        shared.state.withLock { $0.routes[target] = .handler(handler) }
    }

    /// Answers every path starting with `prefix` (when no exact route matches) by calling
    /// `handler`: for upstreams whose paths carry parameters (`/v1/2024-01-01..2024-12-31`).
    public func route(prefix: String, handler: @escaping Handler) {
        shared.state.withLock { $0.prefixRoutes.append((prefix, handler)) }
    }

    /// Applies `fault` to every request (nil switches it off).
    public func setFault(_ fault: Fault?) {
        shared.state.withLock { $0.globalFault = fault }
    }

    /// Applies `fault` to requests for `path` (nil switches it off).
    public func setFault(_ fault: Fault?, for path: String) {
        shared.state.withLock { $0.faults[path] = fault }
    }

    /// Requests seen for `path` (query ignored).
    public func requestCount(for path: String) -> Int { shared.state.withLock { $0.counts[path] ?? 0 } }
    /// Every request seen, in order.
    public var requests: [StubRequest] { shared.state.withLock { $0.log } }
    public var totalRequests: Int { shared.state.withLock { $0.log.count } }
    /// TCP connections accepted so far (keep-alive reuse shows as few connections).
    public var acceptedConnections: Int { server.acceptedConnections }
    public var openConnections: Int { server.openConnections }

    public func stop() { server.stop() }

    // MARK: serving (connection threads)

    private static func serve(_ connection: RawConnection, shared: Shared) {
        while let head = connection.readRequestHead(timeout: 60) {
            guard let request = parse(head) else {
                connection.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return
            }
            let (route, fault) = shared.state.withLock { s -> (Route?, Fault?) in
                s.log.append(request)
                s.counts[request.path, default: 0] += 1
                let fault = s.faults[request.path] ?? s.globalFault
                let key = s.routes[request.target] != nil ? request.target : request.path
                guard let route = s.routes[key] else {
                    let prefixed = s.prefixRoutes.first { request.path.hasPrefix($0.prefix) }
                    return (prefixed.map { .handler($0.handler) }, fault)
                }
                if case .sequence(let list) = route, list.count > 1 {
                    s.routes[key] = .sequence(Array(list.dropFirst()))
                    return (.fixed(list[0]), fault)
                }
                return (route, fault)
            }
            switch fault {
            case .hang?:
                connection.waitForPeerClose(timeout: 120)
                return
            case .garbage?:
                connection.write("SSH-2.0-OpenSSH_9.2 not http at all\r\n\r\n")
                return
            case .reset?:
                connection.reset()
                return
            case .status(let status)?:
                guard write(.json("{}", status: status), to: connection, request: request) else { return }
                continue
            case nil:
                break
            }
            let response: StubResponse
            switch route {
            case .fixed(let fixed)?: response = fixed
            case .sequence(let list)?: response = list[0]
            case .handler(let handler)?: response = handler(request)
            case nil: response = .json("{\"error\":\"no stub route for \(request.path)\"}", status: 404)
            }
            guard write(response, to: connection, request: request) else { return }
            if request.headers["connection"]?.lowercased() == "close" { return }
            if response.headers.contains(where: { $0.0.lowercased() == "connection" && $0.1.lowercased() == "close" }) { return }
        }
    }

    private static func write(_ response: StubResponse, to connection: RawConnection, request: StubRequest) -> Bool {
        var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
        let suppliesLength = response.headers.contains { $0.0.lowercased() == "content-length" || $0.0.lowercased() == "transfer-encoding" }
        if !suppliesLength { head += "Content-Length: \(response.body.count)\r\n" }
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let body = request.method == "HEAD" ? [] : response.body
        return connection.write(Array(head.utf8) + body)
    }

    static func parse(_ head: String) -> StubRequest? {
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count == 3, parts[2].hasPrefix("HTTP/1.") else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let target = String(parts[1])
        let pieces = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return StubRequest(method: String(parts[0]), target: target, path: String(pieces[0]),
                           query: pieces.count > 1 ? String(pieces[1]) : nil, headers: headers)
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status"
        }
    }
}
