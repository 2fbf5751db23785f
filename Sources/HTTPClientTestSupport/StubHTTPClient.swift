import HTTPClient
import Synchronization

/// An in-memory `HTTPClient` for unit tests of services: answers come from a closure, and
/// every request is recorded so tests can assert how many upstream calls were made.
public final class StubHTTPClient: HTTPClient, Sendable {
    public typealias Script = @Sendable (UpstreamRequest) async throws -> UpstreamResponse

    private let script: Script
    private let recorded = Mutex<[UpstreamRequest]>([])

    public init(_ script: @escaping Script) { self.script = script }

    public func get(_ request: UpstreamRequest) async throws -> UpstreamResponse {
        recorded.withLock { $0.append(request) }
        return try await script(request)
    }

    /// Every request seen so far, in order.
    public var requests: [UpstreamRequest] { recorded.withLock { $0 } }

    /// A 200 response carrying `json`.
    public static func json(_ json: String, status: Int = 200) -> UpstreamResponse {
        UpstreamResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(json.utf8))
    }
}
