import Foundation
import Testing
import TestSupport
@testable import Almanac
#if canImport(Glibc)
import Glibc
#endif

/// A one-shot loopback listener answering a canned response, on its own thread.
private final class OneShotServer: Sendable {
    let port: Int
    private let fd: Int32

    init(response: String?) throws {
        let sock = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        fd = sock
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(sock, $0, len) == 0 && getsockname(sock, $0, &len) == 0 }
        }
        guard bound, listen(sock, 4) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        port = Int(UInt16(bigEndian: addr.sin_port))
        let fd = self.fd
        Thread.detachNewThread {
            // Tests run in parallel: a connection that closes without sending a request (another
            // test polling a port the kernel has since handed to us) is skipped, not answered.
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                var buffer = [UInt8](repeating: 0, count: 4096)
                var request: [UInt8] = []
                while !String(decoding: request, as: UTF8.self).contains("\r\n\r\n") {
                    let n = recv(client, &buffer, buffer.count, 0)
                    if n <= 0 { break }
                    request.append(contentsOf: buffer[0..<n])
                }
                if request.isEmpty {
                    close(client)
                    continue
                }
                if let response {
                    _ = response.utf8CString.withUnsafeBufferPointer { send(client, $0.baseAddress, $0.count - 1, Int32(MSG_NOSIGNAL)) }
                }
                close(client)
                return
            }
        }
    }

    /// `shutdown` wakes a thread blocked in `accept`, which `close` alone does not on Linux.
    deinit {
        Glibc.shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
    }
}

@Suite struct HealthCheckTests {
    @Test func okWhenTheServerAnswers200() throws {
        let server = try OneShotServer(response: "HTTP/1.1 200 OK\r\nContent-Length: 15\r\n\r\n{\"status\":\"ok\"}")
        withExtendedLifetime(server) {
            #expect(HealthCheck.probe(url: "http://127.0.0.1:\(server.port)/healthz") == nil)
        }
        let captured = CapturedOutput()
        let server2 = try OneShotServer(response: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        withExtendedLifetime(server2) {
            let code = AlmanacCLI.run(arguments: ["healthcheck"], environment: ["ALMANAC_SERVER_PORT": String(server2.port)],
                                      output: captured.output, fileReader: files([:]))
            #expect(code == 0)
        }
    }

    @Test func failsOnOtherStatusesClosedConnectionsAndRefusedPorts() throws {
        let unavailable = try OneShotServer(response: "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
        withExtendedLifetime(unavailable) {
            #expect(HealthCheck.probe(url: "http://127.0.0.1:\(unavailable.port)/healthz") == .status(503))
        }

        let silent = try OneShotServer(response: nil)
        withExtendedLifetime(silent) {
            #expect(HealthCheck.probe(url: "http://127.0.0.1:\(silent.port)/healthz")
                        == .badResponse("connection closed without a status line"))
        }

        // A port nothing listens on (TestSupport's port source: no other test is given it).
        let refused = try refusedPort()
        let captured = CapturedOutput()
        let code = AlmanacCLI.run(arguments: ["healthcheck", "--url", "http://127.0.0.1:\(refused)/healthz"],
                                  environment: [:], output: captured.output, fileReader: files([:]))
        #expect(code == 1)
        #expect(captured.err.contains("cannot connect"))
    }

    @Test func refusesNonHTTPURLs() {
        guard case .invalidURL = HealthCheck.probe(url: "https://127.0.0.1/healthz") else {
            Issue.record("https must be refused")
            return
        }
    }

    @Test func defaultURLUsesLoopbackForWildcardBinds() {
        var c = AlmanacConfiguration()
        c.server.http.port = 9090
        #expect(HealthCheck.defaultURL(for: c) == "http://127.0.0.1:9090/healthz")
        c.server.http.host = "::"
        #expect(HealthCheck.defaultURL(for: c) == "http://[::1]:9090/healthz")
        c.server.http.host = "10.1.2.3"
        #expect(HealthCheck.defaultURL(for: c) == "http://10.1.2.3:9090/healthz")
    }

    @Test func statusLineParsing() {
        #expect(HealthCheck.statusFailure(statusLine: Array("HTTP/1.0 200 OK\r\n".utf8)) == nil)
        #expect(HealthCheck.statusFailure(statusLine: Array("HTTP/1.1 404 Not Found\r\n".utf8)) == .status(404))
        #expect(HealthCheck.statusFailure(statusLine: Array("SSH-2.0\r\n".utf8)) == .badResponse("unexpected status line"))
    }
}
