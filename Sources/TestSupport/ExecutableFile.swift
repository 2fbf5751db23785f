#if canImport(Glibc)
import Glibc
#endif

/// Writes a small program a test then runs (a stand-in `almanac` that prints a listing), with
/// its descriptor opened close-on-exec.
///
/// Why not `String.write(to:atomically:)` plus `chmod`: Foundation writes through a `mkstemp`
/// descriptor, which is not close-on-exec, so a child another test spawns meanwhile (a
/// redis-server, an almanac binary) inherits it and keeps the file open for writing for its
/// whole life; running the file then fails with ETXTBSY ("Text file busy"), but only when the
/// suites run in parallel. Here a child started meanwhile drops the descriptor at its `exec`.
public enum ExecutableFile {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Creates `path` (which must not exist) with mode 0755 holding `contents`.
    public static func create(at path: String, contents: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw Failure(description: "open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let bytes = Array(contents.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw Failure(description: "write \(path): \(String(cString: strerror(errno)))") }
            written += n
        }
    }
}
