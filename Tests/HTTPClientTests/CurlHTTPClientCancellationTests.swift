import TestSupport
import Foundation
import HTTPClient
import HTTPClientTestSupport
import Testing

@Suite(.timeLimit(.minutes(5))) struct CurlHTTPClientCancellationTests {
    @Test func cancellingMidTransferThrowsCancelledAndClosesTheConnection() async throws {
        let started = Locked(false)
        let peerClosed = Locked(false)
        let server = try RawStubServer { connection in
            guard connection.readRequestHead() != nil else { return }
            guard connection.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789") else { return }
            started.set(true)
            if connection.waitForPeerClose(timeout: 30) { peerClosed.set(true) }
        }
        defer { server.stop() }
        let client = makeClient(timeoutMs: 30_000)
        let task = Task { try await client.get(UpstreamRequest(url: server.baseURL + "/", provider: "p")) }
        #expect(await waitUntil { started.value })
        let cancelledAt = Date()
        task.cancel()
        let result = await task.result
        // Without cancellation the transfer would run to the stub's 30 s hold: any answer well
        // before that is the cancellation's doing (no tighter wall-clock bound: tests run in parallel).
        #expect(Date().timeIntervalSince(cancelledAt) < 15, "long before the transfer could end by itself")
        #expect(result.upstreamErrorKind == .cancelled)
        #expect(await waitUntil { peerClosed.value }, "the stub saw the connection closed")
        #expect(client.metrics.count(provider: "p", outcome: "cancelled") == 1)
    }

    @Test func alreadyCancelledTaskMakesNoRequest() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        let client = makeClient()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.get(UpstreamRequest(url: stub.baseURL + "/x", provider: "p"))
        }
        let result = await task.result
        #expect(result.upstreamErrorKind == .cancelled)
        #expect(stub.totalRequests == 0)
    }
}

extension Result where Failure == any Error {
    var upstreamErrorKind: UpstreamError.Kind? {
        if case .failure(let error) = self { return (error as? UpstreamError)?.kind }
        return nil
    }
}
