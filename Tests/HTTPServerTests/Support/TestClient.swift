import Dispatch
import TestSupport

/// The raw HTTP/1.1 client these tests drive the server with (shared, in `TestSupport`).
typealias TestClient = RawHTTPClient

extension RawHTTPResponse {
    /// The body decoded as UTF-8 (`text`, under the name these tests use).
    var bodyText: String { text }
}

