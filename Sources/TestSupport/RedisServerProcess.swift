import Glibc
import Foundation

/// A real `redis-server` for one test: started on a free 127.0.0.1 port with persistence off
/// (`--save "" --appendonly no`), stopped by its PID, never by name.
///
/// A watchdog shell (`sh`, polling twice a second) SIGKILLs the server if the test process dies
/// without stopping it, so no run leaves a Redis behind; `stop()` ends the watchdog first.
/// `make test` installs the `redis-server` Debian package; `isInstalled` lets a test say
/// plainly that it is missing.
public final class RedisServerProcess: @unchecked Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let port: Int
    public let executable: String
    private let extraArguments: [String]
    /// The server listens on `port` with TLS only (`--tls-port port --port 0`).
    public let tls: Bool
    private let lock = NSLock()
    private var serverPID: pid_t = 0
    private var watchdogPID: pid_t = 0

    /// The `redis-server` on PATH (Debian puts it in /usr/bin), or nil.
    public static var executablePath: String? {
        ChildProcess.installed("redis-server")
    }

    public static var isInstalled: Bool { executablePath != nil }

    /// Starts a server on a fresh free port; `arguments` are extra `redis-server` options.
    /// With `tls` the port speaks TLS only (the arguments must name its certificate:
    /// `TestCertificates.redisServerArguments`).
    public static func start(arguments: [String] = [], tls: Bool = false) async throws -> RedisServerProcess {
        guard let executable = executablePath else {
            throw Failure(description: "redis-server is not installed (make test installs the redis-server package)")
        }
        var lastError: Error = Failure(description: "no attempt")
        for _ in 0..<5 {
            let server = RedisServerProcess(port: try freeLoopbackPort(), executable: executable, extraArguments: arguments, tls: tls)
            do {
                try await server.launch()
                return server
            } catch {
                lastError = error // another process took the port between probe and bind: try another
                await server.stop()
            }
        }
        throw lastError
    }

    private init(port: Int, executable: String, extraArguments: [String], tls: Bool) {
        self.tls = tls
        self.port = port
        self.executable = executable
        self.extraArguments = extraArguments
    }

    deinit {
        // Not stopped by the test (it threw): SIGKILL, nothing to wait for.
        let (server, watchdog) = lock.withLock { (serverPID, watchdogPID) }
        for pid in [watchdog, server] where pid > 0 {
            _ = Glibc.kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
    }

    /// The running server's PID (0 when stopped).
    public var pid: Int32 { lock.withLock { serverPID } }

    public var url: String { "\(tls ? "rediss" : "redis")://127.0.0.1:\(port)" }

    /// Starts the server (again, on the same port) and waits until it accepts connections.
    public func launch() async throws {
        let ports = tls ? ["--port", "0", "--tls-port", String(port)] : ["--port", String(port)]
        let arguments = ports + ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                         "--daemonize", "no", "--dir", "/tmp", "--loglevel", "warning", "--logfile", ""] + extraArguments
        let server = try Self.spawn(executable, arguments)
        let watchdog = ChildProcess.watchdog(killing: server)
        lock.withLock {
            serverPID = server
            watchdogPID = watchdog
        }
        let deadline = TestDeadline(seconds: 10)
        var nap: UInt64 = 1_000_000
        while true {
            var status: Int32 = 0
            if waitpid(server, &status, WNOHANG) == server {
                lock.withLock { serverPID = 0 }
                throw Failure(description: "redis-server exited at start (status \(status)) on port \(port)")
            }
            if (try? RawHTTPClient(port: port, timeout: 1)) != nil { return }
            try await deadline.pause("redis-server start on port \(port)", nap: &nap)
        }
    }

    /// SIGKILL (a crash: no goodbye to clients); returns once the process is gone.
    public func kill() async { await end(signal: SIGKILL) }

    /// SIGTERM, then SIGKILL after 5 s; returns once the process is gone. Idempotent.
    public func stop() async { await end(signal: SIGTERM) }

    /// SIGSTOP: the server keeps its sockets (the kernel still accepts connections) but answers nothing.
    public func pause() { signalServer(SIGSTOP) }

    /// SIGCONT after `pause()`.
    public func resume() { signalServer(SIGCONT) }

    private func signalServer(_ signal: Int32) {
        let pid = self.pid
        if pid > 0 { _ = Glibc.kill(pid, signal) }
    }

    /// Ends the watchdog, signals the server, and reaps it, waiting without blocking a thread
    /// of the cooperative pool (2 on this machine: a blocked one stalls every other test).
    private func end(signal: Int32) async {
        let (server, watchdog) = lock.withLock { () -> (pid_t, pid_t) in
            defer { serverPID = 0; watchdogPID = 0 }
            return (serverPID, watchdogPID)
        }
        var status: Int32 = 0
        if watchdog > 0 {
            _ = Glibc.kill(watchdog, SIGKILL)
            _ = waitpid(watchdog, &status, 0)
        }
        guard server > 0 else { return }
        _ = Glibc.kill(server, SIGCONT) // a paused server must be able to act on SIGTERM
        _ = Glibc.kill(server, signal)
        let deadline = TestDeadline(seconds: 5)
        var nap: UInt64 = 1_000_000
        while waitpid(server, &status, WNOHANG) == 0 {
            do {
                try await deadline.pause("redis-server exit", nap: &nap)
            } catch {
                _ = Glibc.kill(server, SIGKILL)
                _ = waitpid(server, &status, 0)
                return
            }
        }
    }

    /// `posix_spawn` with output on /dev/null and a clean signal state (`ChildProcess.spawn`).
    private static func spawn(_ path: String, _ arguments: [String]) throws -> pid_t {
        try ChildProcess.spawn(path, arguments)
    }
}
