import Base

/// Limits and deadlines of the server (`server.*` keys; docs/server.md "Limits and HTTP behaviour").
public struct HTTPServerConfiguration: Sendable, Equatable {
    /// An IPv4 or IPv6 literal (`0.0.0.0`, `127.0.0.1`, `::`, `::1`) or a host name.
    public var host: String = "0.0.0.0"
    /// 0 asks the kernel for an ephemeral port (tests); `HTTPServer.start()` returns the real one.
    public var port: Int = 8080
    /// At this many open connections, a new one is served by closing the connection that has
    /// waited longest for a request (idle keep-alive, or silent since accept); only when none
    /// is waiting does it get a 503 problem and is closed.
    public var maxConnections: Int = 4096
    /// From a request's first byte until its head is complete (408 after it). Also how long
    /// a freshly accepted connection may stay silent before it is closed without a response.
    public var headerTimeoutSeconds: Double = 10
    /// How long a keep-alive connection may wait between requests before a silent close.
    public var idleTimeoutSeconds: Double = 60
    /// A body that stops arriving, or a response the client stops reading, is cut after this.
    public var bodyTimeoutSeconds: Double = 30
    public var writeTimeoutSeconds: Double = 30
    public var maxRequestLineBytes: Int = 8192
    public var maxHeaderBytes: Int = 16384
    public var maxHeaderFields: Int = 100
    public var maxBodyBytes: Int = 65536
    public var shutdownGraceSeconds: Double = 10
    /// After a final response (`Connection: close`, errors), how long input is drained while
    /// waiting for the peer's EOF, so it reads the response instead of a reset (RFC 9112 §9.6).
    public var lingerTimeoutSeconds: Double = 2
    /// Event loops (threads, each with its epoll set and listening socket) that own
    /// connections; 0 means one per online CPU. The name is kept from when they were serial
    /// Dispatch queues (callers and `bench-server`'s `BENCH_QUEUES` set it).
    public var connectionQueueCount: Int = 0
    /// Which loop a new connection lives on: packed onto as few loops as the load needs
    /// (`.adaptive`, the default), or wherever the kernel's `SO_REUSEPORT` hash put it
    /// (`.spread`). See `LoopPlacement` and `LoopGovernor`.
    public var loopPlacement: LoopPlacement = .adaptive
    /// The `Server` header, e.g. `almanac/1.0.0`.
    public var serverName: String = "almanac"
    /// Behind one trusted reverse proxy: the access log's client address comes from the last
    /// `X-Forwarded-For` entry (see `ForwardedFor`) instead of the peer's. Off by default: a
    /// client talking to almanac directly could otherwise write any address into the log.
    public var trustForwardedHeaders: Bool = false
    public init() {}
}

/// One line of the access log, handed to the logger after each response is written.
public struct AccessLogEntry: Sendable {
    /// `-` for responses to requests that could not be parsed (400, 408, 413, …, 503 at the limit).
    /// Clipped to `maxMethodScalars` (then `…`): a method is any token a client sends, and an
    /// 8 KB one must not become an 8 KB log line.
    public var method: String
    /// The longest method logged whole; the longest registered method is 7 bytes (`OPTIONS`).
    public static let maxMethodScalars = 32
    /// The path only: the query string can carry secrets, so it never reaches the log.
    public var path: String
    public var status: Int
    /// Body bytes sent (0 for HEAD, 304 and 204).
    public var bytes: Int
    /// From the complete request (or the error) until the last byte was handed to the kernel.
    public var durationSeconds: Double
    public var requestID: String
    /// The peer's numeric IP address, without the port; with `trustForwardedHeaders`, the
    /// address the trusted proxy reports in `X-Forwarded-For` when it is a numeric address.
    public var remoteAddress: String
    /// The request's W3C trace (`trace_id`, `span_id` on the line); a new one for a request
    /// that came without a valid `traceparent` or could not be parsed.
    public var trace: TraceContext
    public init(method: String, path: String, status: Int, bytes: Int, durationSeconds: Double, requestID: String, remoteAddress: String,
                trace: TraceContext = .begin(from: nil)) {
        self.method = EchoedText.clipped(method, limit: AccessLogEntry.maxMethodScalars)
        self.path = path
        self.status = status
        self.bytes = bytes
        self.durationSeconds = durationSeconds
        self.requestID = requestID
        self.remoteAddress = remoteAddress
        self.trace = trace
    }
}
