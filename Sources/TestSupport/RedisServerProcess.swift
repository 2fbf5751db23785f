#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
    private let lock = NSLock()
    private var server: Process?
    private var watchdog: Process?

    /// The `redis-server` on PATH (Debian puts it in /usr/bin), or nil.
    public static var executablePath: String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/sbin").split(separator: ":") + ["/usr/bin", "/usr/sbin"] {
            let path = "\(directory)/redis-server"
            if access(path, X_OK) == 0 { return path }
        }
        return nil
    }

    public static var isInstalled: Bool { executablePath != nil }

    /// Starts a server on a fresh free port; `arguments` are extra `redis-server` options.
    public static func start(arguments: [String] = []) async throws -> RedisServerProcess {
        guard let executable = executablePath else {
            throw Failure(description: "redis-server is not installed (make test installs the redis-server package)")
        }
        var lastError: Error = Failure(description: "no attempt")
        for _ in 0..<5 {
            let server = RedisServerProcess(port: unusedLoopbackPort(), executable: executable, extraArguments: arguments)
            do {
                try await server.launch()
                return server
            } catch {
                lastError = error // another process took the port between probe and bind: try another
                server.stop()
            }
        }
        throw lastError
    }

    private init(port: Int, executable: String, extraArguments: [String]) {
        self.port = port
        self.executable = executable
        self.extraArguments = extraArguments
    }

    deinit { stop() }

    /// The running server's PID (0 when stopped).
    public var pid: Int32 {
        lock.withLock { server?.isRunning == true ? server?.processIdentifier ?? 0 : 0 }
    }

    public var url: String { "redis://127.0.0.1:\(port)" }

    /// Starts the server (again, on the same port) and waits until it accepts connections.
    public func launch() async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--daemonize", "no", "--dir", NSTemporaryDirectory(), "--loglevel", "warning",
                             "--logfile", ""] + extraArguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let guardian = Process()
        guardian.executableURL = URL(fileURLWithPath: "/bin/sh")
        guardian.arguments = ["-c", "while kill -0 $0 2>/dev/null && kill -0 $1 2>/dev/null; do sleep 0.5; done; kill -9 $1 2>/dev/null",
                              String(getpid()), String(process.processIdentifier)]
        guardian.standardOutput = FileHandle.nullDevice
        guardian.standardError = FileHandle.nullDevice
        try? guardian.run()
        lock.withLock {
            server = process
            watchdog = guardian
        }
        let deadline = TestDeadline(seconds: 10)
        var nap: UInt64 = 1_000_000
        while true {
            guard process.isRunning else {
                throw Failure(description: "redis-server exited at start (status \(process.terminationStatus)) on port \(port)")
            }
            if (try? RawHTTPClient(port: port, timeout: 1)) != nil { return }
            try await deadline.pause("redis-server start on port \(port)", nap: &nap)
        }
    }

    /// SIGKILL (a crash: no goodbye to clients) and wait for the process to be gone.
    public func kill() { end(signal: SIGKILL) }

    /// SIGTERM, then SIGKILL after 5 s; waits until the process is gone. Idempotent.
    public func stop() { end(signal: SIGTERM) }

    /// SIGSTOP: the server keeps its sockets (the kernel still accepts connections) but answers nothing.
    public func pause() { signalServer(SIGSTOP) }

    /// SIGCONT after `pause()`.
    public func resume() { signalServer(SIGCONT) }

    private func signalServer(_ signal: Int32) {
        let pid = self.pid
        if pid > 0 { _ = Glibc.kill(pid, signal) }
    }

    private func end(signal: Int32) {
        let (process, guardian) = lock.withLock { () -> (Process?, Process?) in
            defer { server = nil; watchdog = nil }
            return (server, watchdog)
        }
        if let guardian, guardian.isRunning {
            _ = Glibc.kill(guardian.processIdentifier, SIGKILL)
            guardian.waitUntilExit()
        }
        guard let process, process.isRunning else { return }
        let pid = process.processIdentifier
        _ = Glibc.kill(pid, SIGCONT) // a paused server must be able to act on SIGTERM
        _ = Glibc.kill(pid, signal)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { _ = Glibc.kill(pid, SIGKILL) }
        process.waitUntilExit()
    }
}

/// A 127.0.0.1 TCP port that was free a moment ago (bound to port 0, then released).
public func unusedLoopbackPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return 0 }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let rc = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length) == 0 ? getsockname(fd, pointer, &length) : -1
        }
    }
    return rc == 0 ? Int(UInt16(bigEndian: address.sin_port)) : 0
}
