import HTTPServer
import Synchronization

/// A handler that waits until the test opens it, so "requests in flight" is a state the
/// test controls rather than a race it hopes to win.
final class Gate: Sendable {
    private struct State {
        var open = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var arrived = 0
    }

    private let state = Mutex(State())

    /// How many handlers have reached the gate.
    var arrived: Int { state.withLock { $0.arrived } }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                state.arrived += 1
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Collects access-log entries.
final class AccessLogRecorder: Sendable {
    private let entries = Mutex<[AccessLogEntry]>([])
    var all: [AccessLogEntry] { entries.withLock { $0 } }
    func record(_ entry: AccessLogEntry) { entries.withLock { $0.append(entry) } }
}

/// A real server on an ephemeral 127.0.0.1 port, answering through the shared `Router`.
struct TestServer {
    let server: HTTPServer
    let port: Int
    let gate: Gate
    let log: AccessLogRecorder

    static let bigBody = [UInt8](repeating: UInt8(ascii: "x"), count: 8 * 1024 * 1024)

    static func router(gate: Gate) -> Router {
        var router = Router()
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
        configure(&configuration)
        let gate = Gate()
        let log = AccessLogRecorder()
        let router = router(gate: gate)
        let server = HTTPServer(configuration: configuration,
                                responder: { router.respond(to: $0) },
                                accessLog: { log.record($0) })
        let port = try server.start()
        return TestServer(server: server, port: port, gate: gate, log: log)
    }

    func client(timeout: Double = 10) throws -> TestClient {
        try TestClient(port: port, timeout: timeout)
    }

    func stop() async {
        gate.open()
        await server.shutdown()
    }
}
