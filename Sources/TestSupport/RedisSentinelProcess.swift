import Foundation
import Glibc

/// A real `redis-sentinel` (Debian's package) for one test: on a free 127.0.0.1 port, its
/// configuration file in a fresh temporary directory (Sentinel rewrites it as it learns), short
/// timeouts so a failover takes seconds, stopped by its PID (a watchdog SIGKILLs it if the test
/// process dies first).
public final class RedisSentinelProcess: Sendable {
    public let port: Int
    public let directory: String
    private let child: ChildProcess

    /// The `redis-sentinel` on PATH, or nil.
    public static var executablePath: String? {
        ChildProcess.installed("redis-sentinel")
    }

    /// Starts a sentinel monitoring the primary at 127.0.0.1:`primaryPort` as `masterName`,
    /// with `quorum` sentinels needed to call it down after `downAfterMilliseconds` of silence.
    /// `configuration` lines end `sentinel.conf` (TLS towards the monitored servers, the
    /// master's `auth-pass`); the sentinel's plain `port` stays the one tests and almanac ask.
    public static func start(masterName: String, primaryPort: Int, quorum: Int = 2,
                             downAfterMilliseconds: Int = 1_000, failoverTimeoutMilliseconds: Int = 3_000,
                             configuration extra: [String] = []) async throws -> RedisSentinelProcess {
        guard let executable = executablePath else {
            throw RedisServerProcess.Failure(description: "redis-sentinel is not installed (make test-deps installs it)")
        }
        var lastError: Error = RedisServerProcess.Failure(description: "no attempt")
        for _ in 0..<5 {
            let port = try freeLoopbackPort()
            let directory = NSTemporaryDirectory() + "almanac-sentinel-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let configuration = """
                port \(port)
                bind 127.0.0.1
                daemonize no
                dir \(directory)
                logfile \(directory)/sentinel.log
                sentinel monitor \(masterName) 127.0.0.1 \(primaryPort) \(quorum)
                sentinel down-after-milliseconds \(masterName) \(downAfterMilliseconds)
                sentinel failover-timeout \(masterName) \(failoverTimeoutMilliseconds)
                sentinel parallel-syncs \(masterName) 1
                \(extra.joined(separator: "\n"))

                """
            let path = directory + "/sentinel.conf"
            try Data(configuration.utf8).write(to: URL(fileURLWithPath: path))
            let child = try ChildProcess(executable, [path], environment: [:], directory: directory)
            let sentinel = RedisSentinelProcess(port: port, directory: directory, child: child)
            let deadline = TestDeadline(seconds: 10)
            var nap: UInt64 = 1_000_000
            do {
                while true {
                    guard child.isRunning else {
                        throw RedisServerProcess.Failure(description: "redis-sentinel exited at start on port \(port)")
                    }
                    if (try? RawHTTPClient(port: port, timeout: 1)) != nil { return sentinel }
                    try await deadline.pause("redis-sentinel start on port \(port)", nap: &nap)
                }
            } catch {
                lastError = error
                await sentinel.stop()
            }
        }
        throw lastError
    }

    private init(port: Int, directory: String, child: ChildProcess) {
        self.port = port
        self.directory = directory
        self.child = child
    }

    /// `127.0.0.1:port`, as `cache.redis.sentinels` lists it.
    public var address: String { "127.0.0.1:\(port)" }

    /// What the sentinel logged (for a failing test's report).
    public var log: String { (try? String(contentsOfFile: directory + "/sentinel.log", encoding: .utf8)) ?? "" }

    /// SIGTERM (SIGKILL after 5 s), then removes the directory. Idempotent.
    public func stop() async {
        await child.stop(grace: 5)
        try? FileManager.default.removeItem(atPath: directory)
    }
}
