import Synchronization

/// Lines a command under test writes to its standard output and error, kept in order per
/// stream. The almanac test targets hand `writeOut`/`writeErr` to the CLI as its output
/// (`AlmanacCLI.Output(out:err:)`), so every exit path is checked without spawning a process.
public final class CapturedOutput: Sendable {
    private let state = Mutex<(out: [String], err: [String])>(([], []))

    public init() {}

    /// Appends a line to standard output.
    @Sendable public func writeOut(_ line: String) { state.withLock { $0.out.append(line) } }
    /// Appends a line to standard error.
    @Sendable public func writeErr(_ line: String) { state.withLock { $0.err.append(line) } }

    /// Standard output so far, one line per write.
    public var out: String { state.withLock { $0.out.joined(separator: "\n") } }
    /// Standard error so far, one line per write.
    public var err: String { state.withLock { $0.err.joined(separator: "\n") } }
}
