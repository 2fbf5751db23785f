import Foundation

/// Runs a Python test driver (`python3 script …`) as a `ChildProcess`: default signal actions
/// and an empty signal mask (so it behaves the same under `make test &`, where a
/// non-interactive shell starts everything with SIGINT ignored), this process's environment
/// plus `environment`, standard output and error collected in a temporary file (no pipe to
/// fill up while nobody reads it), and SIGTERM then SIGKILL once `timeout` seconds have passed.
public enum PythonScript {
    public struct Result: Sendable {
        /// The exit code, minus the signal number when a signal ended it, or -1 on time-out.
        public var status: Int32
        /// Standard output and error, interleaved as written.
        public var output: String
    }

    public static func run(_ script: URL, arguments: [String] = [], environment: [String: String],
                           timeout: Double) async throws -> Result {
        let python = ChildProcess.installed("python3") ?? "/usr/bin/python3"
        let log = FileManager.default.temporaryDirectory
            .appendingPathComponent("almanac-python-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let child = try ChildProcess(python, [script.path] + arguments, environment: merged,
                                     stdout: log, stderr: log)
        let status = await child.exitStatus(within: timeout)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard let status else {
            await child.stop()
            return Result(status: -1, output: "timed out after \(timeout) s\n\(output)")
        }
        return Result(status: status, output: output)
    }
}
