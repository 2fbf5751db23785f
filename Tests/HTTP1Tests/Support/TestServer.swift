import TestSupport
import HTTP1
import Web
import Synchronization
import Glibc



/// A real server on an ephemeral 127.0.0.1 port, answering through the shared `Router`.
struct TestServer {
    let server: HTTPServer
    let port: Int
    let gate: Gate
    /// The access-log entries, in order.
    let log: Locked<[AccessLogEntry]>
    /// The server's operational messages (`errorLog`), in order.
    let errors: Locked<[String]>
    /// How many `/spin` requests have started their handler.
    let spins: Locked<Int>

    static let bigBody = [UInt8](repeating: UInt8(ascii: "x"), count: 8 * 1024 * 1024)

    static func router(gate: Gate, spins: Locked<Int> = Locked(0)) -> Router {
        var router = Router()
        // Holds its connection queue for `ms` (a handler that blocks): whatever else arrives
        // for that queue meanwhile waits, in order, behind it.
        router.get("/spin/{ms}") { _, params in
            spins.increment()
            usleep(UInt32(params["ms"].flatMap { UInt32($0) } ?? 0) * 1000)
            return .ready(HTTPResponse(body: Array("spun".utf8)))
        }
        router.get("/hello") { _, _ in .ready(.json(Array(#"{"hello":"world"}"#.utf8))) }
        router.get("/echo/{n}") { _, params in .ready(.json(Array("\(params["n"] ?? "")".utf8))) }
        router.get("/request-id") { request, _ in .ready(HTTPResponse(body: Array(request.requestID.utf8))) }
        router.get("/delay/{ms}") { _, params in
            let ms = UInt64(params["ms"] ?? "0") ?? 0
            return .pending {
                try? await Task.sleep(nanoseconds: ms * 1_000_000)
                return HTTPResponse(body: Array("delayed \(ms)".utf8))
            }
        }
        router.get("/gate") { _, _ in
            .pending {
                await gate.wait()
                return HTTPResponse(body: Array("through the gate".utf8))
            }
        }
        router.get("/big") { _, _ in .ready(HTTPResponse(body: TestServer.bigBody)) }
        // A head far larger than the queue's initial 4 KiB head scratch.
        router.get("/big-head/{kib}") { _, params in
            let kib = Int(params["kib"] ?? "") ?? 0
            var response = HTTPResponse(body: Array("ok".utf8))
            response.headers.add("X-Filler", String(repeating: "h", count: kib * 1024))
            return .ready(response)
        }
        // A handler that copies hostile bytes into a header (as a value from Redis or an
        // upstream could): the response writer must refuse it.
        router.get("/unsafe-header/{kind}") { _, params in
            var response = HTTPResponse(body: Array("must not be sent".utf8))
            switch params["kind"] ?? "" {
            case "crlf": response.headers.add("ETag", "\"x\"\r\nSet-Cookie: session=stolen")
            case "lf": response.headers.add("Location", "/a\nSet-Cookie: session=stolen")
            case "nul": response.headers.add("X-Note", "a\u{0}b")
            case "tab": response.headers.add("X-Note", "a\tb")
            case "del": response.headers.add("X-Note", "a\u{7F}b")
            case "name": response.headers.add("X-A\r\nSet-Cookie", "session=stolen")
            case "colon": response.headers.add("X-A: b", "c")
            case "pending":
                return .pending {
                    var late = HTTPResponse(body: Array("must not be sent".utf8))
                    late.headers.add("ETag", "\"x\"\r\nSet-Cookie: session=stolen")
                    return late
                }
            default: response.headers.add("X-Note", "plain é text")
            }
            return .ready(response)
        }
        router.get("/no-content") { _, _ in .ready(HTTPResponse(status: .noContent)) }
        router.get("/not-modified") { _, _ in .ready(HTTPResponse(status: .notModified, headers: ["ETag": "\"1\""])) }
        router.add("POST", "/upload") { request, _ in
            .ready(HTTPResponse(body: Array("got \(request.body.count)".utf8)))
        }
        return router
    }

    static func start(host: String = "127.0.0.1", _ configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        var configuration = HTTPServerConfiguration()
        configuration.host = host
        configuration.port = 0
        configuration.lingerTimeoutSeconds = 0.5
        // Four event loops on a 2-core machine: every end-to-end test runs with several loops
        // (and their listening sockets) unless it asks for one.
        configuration.connectionQueueCount = 4
        // Each connection stays on the loop whose socket accepted it, so the kernel's spread
        // puts the tests' connections on several loops. `.adaptive` (the default, which packs
        // light load onto one loop) has tests of its own (`EndToEnd.LoopPlacementTests`).
        configuration.loopPlacement = .spread
        configure(&configuration)
        let gate = Gate()
        let log = Locked<[AccessLogEntry]>([])
        let errors = Locked<[String]>([])
        let spins = Locked(0)
        let router = router(gate: gate, spins: spins)
        let server = HTTPServer(configuration: configuration,
                                responder: { router.respond(to: $0) },
                                accessLog: { log.append($0) },
                                errorLog: { errors.append($0) })
        let port = try server.start()
        return TestServer(server: server, port: port, gate: gate, log: log, errors: errors, spins: spins)
    }

    func client(timeout: Double = 10) throws -> RawHTTPClient {
        try RawHTTPClient(port: port, timeout: timeout)
    }

    func stop() async {
        gate.open()
        await server.shutdown()
    }
}

/// Whether this machine has an IPv6 loopback to listen on (containers and CI runners often
/// have none): a stream socket bound to `::1`, port 0, and closed again.
let ipv6LoopbackAvailable: Bool = {
    #if canImport(Glibc)
    let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_INET6, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in6()
    address.sin6_family = sa_family_t(AF_INET6)
    address.sin6_addr = in6addr_loopback
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
        }
    }
}()
