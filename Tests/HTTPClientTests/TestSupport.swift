import Base
import TestSupport
import Foundation
import HTTPClient
import HTTPClientTestSupport
import Testing

/// The default timeout is generous on purpose: these tests are about what the client does, not
/// about how fast a 2-core machine running the whole suite in parallel gets to it (CPU-bound
/// suites and three-replica cluster tests can hold a test process back for seconds). Tests of
/// timeouts and deadlines pass their own small values.
/// `clock`: the client's time (deadline, retry waits, latency); tests of waits pass a `ManualClock`.
func makeClient(timeoutMs: Int = 30_000, retries: Int = 0, clock: any MonotonicClock = SystemClock(),
                configure: (inout HTTPClientConfiguration) -> Void = { _ in }) -> CurlHTTPClient {
    var configuration = HTTPClientConfiguration()
    configuration.timeoutMs = timeoutMs
    configuration.retries = retries
    configuration.userAgent = "almanac-tests/1"
    configure(&configuration)
    return CurlHTTPClient(configuration: configuration, clock: clock)
}

/// Runs `body`, expecting an `UpstreamError`; returns it (or records an issue).
func expectUpstreamError(_ body: () async throws -> UpstreamResponse,
                         sourceLocation: SourceLocation = #_sourceLocation) async -> UpstreamError? {
    do {
        let response = try await body()
        Issue.record("expected an UpstreamError, got status \(response.status)", sourceLocation: sourceLocation)
        return nil
    } catch let error as UpstreamError {
        return error
    } catch {
        Issue.record("expected an UpstreamError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A raw server whose connections all answer `bytes` to the first request, then close.
func rawServer(answering bytes: String) throws -> RawStubServer {
    try RawStubServer { connection in
        guard connection.readRequestHead() != nil else { return }
        connection.write(bytes)
    }
}

/// A raw server that answers a 1,000-byte body one byte every `interval` seconds after its head
/// (a drip-feeding upstream).
func drippingServer(interval: Double) throws -> RawStubServer {
    try RawStubServer { connection in
        guard connection.readRequestHead() != nil else { return }
        guard connection.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n") else { return }
        connection.drip([UInt8](repeating: 0x7B, count: 1000), interval: interval)
    }
}

/// A field of /proc/self/status, in its unit (kB for memory, a count for Threads).
func procStatus(_ field: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.dropFirst(field.count + 1).split(separator: " ").first ?? "")
    }
    return nil
}
