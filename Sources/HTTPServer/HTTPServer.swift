// PLACEHOLDER API: the server helper replaces the bodies (signatures may grow, not break).

/// Limits and deadlines of the server (API.md §1 `server.*`, §6).
public struct HTTPServerConfiguration: Sendable {
    public var host: String = "0.0.0.0"
    /// 0 asks the kernel for an ephemeral port (tests); `HTTPServer.start()` returns the real one.
    public var port: Int = 8080
    public var maxConnections: Int = 4096
    public var headerTimeoutSeconds: Double = 10
    public var idleTimeoutSeconds: Double = 60
    /// A body that stops arriving, or a response the client stops reading, is cut after this.
    public var bodyTimeoutSeconds: Double = 30
    public var writeTimeoutSeconds: Double = 30
    public var maxRequestLineBytes: Int = 8192
    public var maxHeaderBytes: Int = 16384
    public var maxHeaderFields: Int = 100
    public var maxBodyBytes: Int = 65536
    public var shutdownGraceSeconds: Double = 10
    /// The `Server` header, e.g. `almanac/1.0.0`.
    public var serverName: String = "almanac"
    public init() {}
}

/// One line of the access log, handed to the logger after each response is written.
public struct AccessLogEntry: Sendable {
    public var method: String
    /// The path only: the query string can carry secrets, so it never reaches the log.
    public var path: String
    public var status: Int
    public var bytes: Int
    public var durationSeconds: Double
    public var requestID: String
    public var remoteAddress: String
    public init(method: String, path: String, status: Int, bytes: Int, durationSeconds: Double, requestID: String, remoteAddress: String) {
        self.method = method
        self.path = path
        self.status = status
        self.bytes = bytes
        self.durationSeconds = durationSeconds
        self.requestID = requestID
        self.remoteAddress = remoteAddress
    }
}

/// The HTTP/1.1 server: a listener plus one serial-queue-owned state machine per connection.
public final class HTTPServer: Sendable {
    public typealias Responder = @Sendable (HTTPRequest) -> HTTPResponseFuture

    public init(configuration: HTTPServerConfiguration,
                responder: @escaping Responder,
                accessLog: (@Sendable (AccessLogEntry) -> Void)? = nil) {
        fatalError("HTTPServer not implemented yet")
    }

    /// Binds, listens and starts accepting. Returns the bound port.
    @discardableResult
    public func start() throws -> Int { fatalError("HTTPServer not implemented yet") }

    /// True once shutdown began: `/readyz` answers 503 from then on.
    public var isDraining: Bool { fatalError("HTTPServer not implemented yet") }

    /// Connections currently open (for `/metrics`).
    public var openConnections: Int { fatalError("HTTPServer not implemented yet") }

    /// Stops accepting, lets in-flight requests finish, closes idle connections, and returns
    /// when every connection is closed or `shutdownGraceSeconds` passed.
    public func shutdown() async { fatalError("HTTPServer not implemented yet") }
}
