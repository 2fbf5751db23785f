import TestSupport
import Foundation
import HTTPClient
import HTTPClientTestSupport
import Testing

@Suite(.timeLimit(.minutes(5))) struct CurlHTTPClientFaultTests {
    @Test func silentServerTimesOutWithinTheDeadline() async throws {
        let server = try RawStubServer { connection in
            guard connection.readRequestHead() != nil else { return }
            connection.waitForPeerClose(timeout: 30)
        }
        defer { server.stop() }
        let started = Date()
        let error = await expectUpstreamError {
            try await makeClient(timeoutMs: 500, retries: 2).get(UpstreamRequest(url: server.baseURL + "/slow", provider: "p"))
        }
        #expect(error?.kind == .timeout)
        #expect(error?.isTimeout == true)
        #expect(Date().timeIntervalSince(started) < 15, "long before the stub's 30 s hold ends")
        #expect(server.requestCount == 1, "the deadline is spent: no retry")
    }

    @Test func resetIsAConnectionError() async throws {
        let server = try RawStubServer { connection in
            guard connection.readRequestHead() != nil else { return }
            connection.reset()
        }
        defer { server.stop() }
        let error = await expectUpstreamError { try await makeClient().get(UpstreamRequest(url: server.baseURL + "/", provider: "p")) }
        #expect(error?.kind == .connectionReset)
    }

    @Test func garbageStatusLineIsMalformed() async throws {
        for garbage in ["SSH-2.0-OpenSSH_9.2\r\n\r\n", "HTTP/1.1 abc Nope\r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 200 OK\r\nno colon here\r\n\r\n"] {
            let server = try rawServer(answering: garbage)
            defer { server.stop() }
            let error = await expectUpstreamError { try await makeClient().get(UpstreamRequest(url: server.baseURL + "/", provider: "p")) }
            #expect(error?.kind == .malformed, "\(garbage.debugDescription): \(String(describing: error))")
        }
    }

    @Test func bodyShortOfContentLengthIsTruncated() async throws {
        let server = try rawServer(answering: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789")
        defer { server.stop() }
        let error = await expectUpstreamError { try await makeClient().get(UpstreamRequest(url: server.baseURL + "/", provider: "p")) }
        #expect(error?.kind == .truncated)
    }

    @Test func cutChunkedBodyIsTruncated() async throws {
        for cut in ["a\r\n0123456789\r\nff\r\nabc", "a\r\n0123456789\r\n"] {
            let server = try rawServer(answering: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + cut)
            defer { server.stop() }
            let error = await expectUpstreamError { try await makeClient().get(UpstreamRequest(url: server.baseURL + "/", provider: "p")) }
            #expect(error?.kind == .truncated, "\(cut.debugDescription): \(String(describing: error))")
        }
    }

    @Test(arguments: ["Content-Length: 5\r\nContent-Length: 6", "Content-Length: 5\r\nContent-Length: 5", "Content-Length: 5, 5", "Content-Length: -5"])
    func badContentLengthIsMalformedAndTheConnectionIsNotReused(_ fields: String) async throws {
        let clientClosed = Locked(false)
        let server = try RawStubServer { connection in
            guard connection.readRequestHead() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\n\(fields)\r\n\r\nhello")
            if connection.waitForPeerClose(timeout: 10) { clientClosed.set(true) }
        }
        defer { server.stop() }
        let error = await expectUpstreamError { try await makeClient().get(UpstreamRequest(url: server.baseURL + "/", provider: "p")) }
        #expect(error?.kind == .malformed)
        #expect(await waitUntil { clientClosed.value }, "the client dropped the connection")
    }

    @Test func declaredHugeBodyIsTooLargeBeforeItIsRead() async throws {
        let server = try rawServer(answering: "HTTP/1.1 200 OK\r\nContent-Length: 20971520\r\n\r\n")
        defer { server.stop() }
        let error = await expectUpstreamError {
            try await makeClient().get(UpstreamRequest(url: server.baseURL + "/", provider: "p", maxResponseBytes: 1_048_576))
        }
        #expect(error?.kind == .tooLarge)
    }

    @Test func streamedHugeBodyIsCutInTheWriteCallback() async throws {
        let sent = Locked(0)
        let server = try RawStubServer { connection in
            guard connection.readRequestHead() != nil else { return }
            guard connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n") else { return }
            let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x61, count: 65536) + Array("\r\n".utf8)
            for _ in 0..<320 {  // 20 MB
                guard connection.write(chunk) else { return }
                sent.increment(by: 65536)
            }
            connection.write("0\r\n\r\n")
        }
        defer { server.stop() }
        let rssBefore = procStatus("VmRSS") ?? 0
        let error = await expectUpstreamError {
            try await makeClient().get(UpstreamRequest(url: server.baseURL + "/", provider: "p", maxResponseBytes: 1_048_576))
        }
        let rssAfter = procStatus("VmRSS") ?? 0
        #expect(error?.kind == .tooLarge)
        // The client stopped reading: the server could not send the whole 20 MB.
        #expect(await waitUntil { server.openConnections == 0 })
        #expect(sent.value < 20 * 1_048_576, "sent \(sent.value)")
        #expect(rssAfter - rssBefore < 64 * 1024, "RSS grew by \(rssAfter - rssBefore) kB")
    }

    @Test func dripFeedIsCutByTheLowSpeedLimit() async throws {
        let server = try drippingServer(interval: 0.2)
        defer { server.stop() }
        let started = Date()
        let client = makeClient(timeoutMs: 30_000) {
            $0.stallBytesPerSecond = 100
            $0.stallSeconds = 1
        }
        let error = await expectUpstreamError { try await client.get(UpstreamRequest(url: server.baseURL + "/", provider: "p")) }
        #expect(error?.kind == .timeout)
        #expect(Date().timeIntervalSince(started) < 15, "well before the 30 s deadline")
        // The detail tells the time actually waited, not the 30 s limit.
        let waited = error.flatMap { Int($0.detail.split(separator: " ").dropFirst(3).first ?? "") } ?? -1
        #expect(error?.detail.hasPrefix("timed out after ") == true && (1000..<15_000).contains(waited), "\(error?.detail ?? "")")
        #expect(error?.diagnostic.contains("stalled") == true, "\(error?.diagnostic ?? "")")
    }

    /// Slow to start, then quick: only `timeoutMs` limits the wait for the first byte, so an
    /// answer 1.6 s late is not cut by a 1 s stall guard (libcurl's low-speed check would).
    @Test func aSlowFirstByteIsNotAStall() async throws {
        let server = try RawStubServer { connection in
            guard connection.readRequestHead() != nil else { return }
            // The upstream's own latency, emulated on its connection thread.
            Thread.sleep(forTimeInterval: 1.6)
            _ = connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
        }
        defer { server.stop() }
        let client = makeClient(timeoutMs: 20_000) {
            $0.stallBytesPerSecond = 100
            $0.stallSeconds = 1
        }
        let response = try await client.get(UpstreamRequest(url: server.baseURL + "/", provider: "p"))
        #expect(response.status == 200)
        #expect(response.body == Array("{}".utf8))
    }

    @Test func dripFeedIsCutByTheTotalDeadline() async throws {
        let server = try drippingServer(interval: 0.01)
        defer { server.stop() }
        let started = Date()
        let error = await expectUpstreamError {
            try await makeClient(timeoutMs: 1000).get(UpstreamRequest(url: server.baseURL + "/", provider: "p"))
        }
        #expect(error?.kind == .timeout)
        #expect(Date().timeIntervalSince(started) < 9, "before the 10 s drip could finish")
    }
}
