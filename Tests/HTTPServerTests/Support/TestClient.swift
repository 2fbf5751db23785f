import Dispatch
import TestSupport

/// The raw HTTP/1.1 client these tests drive the server with (shared, in `TestSupport`).
typealias TestClient = RawHTTPClient

extension RawHTTPResponse {
    /// The body decoded as UTF-8 (`text`, under the name these tests use).
    var bodyText: String { text }
}

/// Waits for `condition` with a deadline (never a fixed sleep-and-hope).
func waitUntil(timeout: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeout * 1e9)
    while DispatchTime.now().uptimeNanoseconds < deadline {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 2_000_000)
    }
    return condition()
}
