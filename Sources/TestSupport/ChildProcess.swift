#if canImport(Glibc)
import Glibc
#endif
#if canImport(CSpawn)
import CSpawn
#endif
import Synchronization

/// A program a test starts (`almanac serve`, `redis-server`): spawned with `posix_spawn`, an
/// empty signal mask and every signal at its default action, and stopped by its PID.
///
/// Why not Foundation's `Process`: the test process runs on threads that block most signals
/// and ignores SIGPIPE, and a child started by `Process` inherits that, so a SIGTERM the test
/// sends to check draining would be held back instead of delivered. Here the child starts
/// exactly as a shell or an orchestrator would start it. It also gets no descriptor but its
/// standard streams: the test process has sockets of in-process servers and stubs and
/// Foundation's temporary files open without close-on-exec, and a child holding a copy would
/// keep a connection a test expects closed open, or a file it then runs busy (ETXTBSY).
///
/// The exit status is collected once (`waitpid`) and kept, so a PID the kernel has given to
/// another process is never signalled or waited for. With `watchdog`, a small shell polling
/// twice a second SIGKILLs the child if the test process dies first, so a crashed test run
/// leaves nothing listening.
public final class ChildProcess: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let pid: pid_t
    private let watchdogPID: pid_t

    /// The executable `name` on PATH or in /usr/bin, /usr/sbin (where Debian puts the test
    /// tools: redis-server, redis-sentinel, openssl), or nil when it is not installed.
    public static func installed(_ name: String) -> String? {
        let path = getenv("PATH").map { String(cString: $0) } ?? ""
        for directory in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin"] {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
    /// The `waitpid` status once collected.
    private let collected = Mutex<Int32?>(nil)

    /// Starts `path` with exactly `arguments` and `environment` (nothing inherited), in
    /// `directory` (nil: the test's own), standard input from /dev/null and standard output and
    /// error appended to the files given (created when missing).
    public init(_ path: String, _ arguments: [String], environment: [String: String],
                directory: String? = nil, stdout: String = "/dev/null", stderr: String = "/dev/null",
                watchdog: Bool = true) throws {
        let environmentLines = environment.map { "\($0.key)=\($0.value)" }.sorted()
        pid = try Self.spawn(path, arguments, environment: environmentLines, directory: directory,
                             stdout: stdout, stderr: stderr)
        watchdogPID = watchdog ? Self.watchdog(killing: pid) : 0
    }

    deinit {
        // Never stopped (the test threw midway): SIGKILL, and reap it.
        kill()
    }

    /// True until the process has exited (collects its status when it has).
    public var isRunning: Bool { collect(blocking: false) == nil }

    /// Sends `signal` unless the process has already been collected.
    public func signal(_ signal: Int32) {
        collected.withLock { status in
            if status == nil { _ = Glibc.kill(pid, signal) }
        }
    }

    /// Waits up to `timeout` seconds (napping, never blocking a thread of the cooperative pool)
    /// for the exit: its exit code, minus the signal number when a signal ended it, or nil
    /// when it is still running.
    public func exitStatus(within timeout: Double) async -> Int32? {
        let deadline = TestDeadline(seconds: timeout)
        var nap: UInt64 = 1_000_000
        while true {
            if let status = collect(blocking: false) { return Self.decode(status) }
            guard (try? await deadline.pause("exit of pid \(pid)", nap: &nap)) != nil else { return nil }
        }
    }

    /// SIGTERM, then SIGKILL when it has not exited within `grace` seconds; returns its status.
    @discardableResult
    public func stop(grace: Double = 5) async -> Int32 {
        signal(SIGTERM)
        if let status = await exitStatus(within: grace) { return status }
        kill()
        return collect(blocking: true).map(Self.decode) ?? -SIGKILL
    }

    /// SIGKILL and reap (cleanup after a failed test; idempotent).
    public func kill() {
        signal(SIGKILL)
        _ = collect(blocking: true)
    }

    /// The exit status, collected now if the process has exited (or, `blocking`, once it
    /// does). The watchdog is ended in the same step, before the PID can be reused.
    private func collect(blocking: Bool) -> Int32? {
        collected.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            let rc = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
            guard rc == pid || (rc < 0 && errno == ECHILD) else { return nil }
            status = rc == pid ? raw : 0
            Self.end(watchdog: watchdogPID)
            return status
        }
    }

    /// SIGKILLs and reaps a watchdog (0: none).
    public static func end(watchdog: pid_t) {
        guard watchdog > 0 else { return }
        _ = Glibc.kill(watchdog, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(watchdog, &status, 0)
    }

    /// An exit code, or minus the number of the signal that ended the process.
    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : -signal
    }

    /// A shell that SIGKILLs `child` once this (test) process is gone; its PID (0 if it could
    /// not be started, which only costs the safety net). End it with `end(watchdog:)` before
    /// reaping the child, so it can never signal a reused PID.
    public static func watchdog(killing child: pid_t) -> pid_t {
        let script = "while kill -0 $0 2>/dev/null; do sleep 0.5; done; kill -9 $1 2>/dev/null"
        return (try? spawn("/bin/sh", ["-c", script, String(getpid()), String(child)])) ?? 0
    }

    /// `posix_spawn` with an empty signal mask and default signal actions. `environment` nil:
    /// this process's environment.
    public static func spawn(_ path: String, _ arguments: [String], environment: [String]? = nil,
                             directory: String? = nil, stdout: String = "/dev/null",
                             stderr: String = "/dev/null") throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        #if canImport(CSpawn)
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        #endif
        // In another working directory: through `sh`, which changes directory and then `exec`s
        // the program, so the PID is the program's (Swift's Glibc does not export
        // `posix_spawn_file_actions_addchdir_np`).
        let program = directory == nil ? path : "/bin/sh"
        let words = directory.map { ["-c", #"cd "$0" && exec "$@""#, $0, path] + arguments } ?? arguments
        let argv = ([program] + words).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let rc: Int32
        if let environment {
            let envp = environment.map { strdup($0) } + [nil]
            defer { for pointer in envp { free(pointer) } }
            rc = posix_spawn(&pid, program, &actions, &attributes, argv, envp)
        } else {
            rc = posix_spawn(&pid, program, &actions, &attributes, argv, environ)
        }
        guard rc == 0 else { throw Failure(description: "posix_spawn \(path): \(String(cString: strerror(rc)))") }
        return pid
    }
}
