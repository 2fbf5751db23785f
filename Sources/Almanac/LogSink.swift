#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where finished log lines go. One call per line, newline included.
public protocol LogSink: Sendable {
    func write(line: [UInt8])
}

/// Standard output with one `write(2)` per line (looping only on a short write), under a
/// lock so concurrent lines never interleave even past `PIPE_BUF`. Unbuffered on purpose:
/// a line is on its way to the log collector before the next request runs, and nothing is
/// lost when the process is killed.
public final class StandardOutputSink: LogSink {
    private let lock = Mutex(())
    private let fd: Int32

    public init(fileDescriptor: Int32 = 1) { fd = fileDescriptor }

    public func write(line: [UInt8]) {
        lock.withLock { _ in
            line.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let n = posixWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n > 0 {
                        offset += n
                    } else if n < 0 && errno == EINTR {
                        continue
                    } else {
                        return  // stdout closed or full disk: drop the line, never crash
                    }
                }
            }
        }
    }
}

/// Keeps lines in memory, for tests.
public final class MemoryLogSink: LogSink {
    private let storage = Mutex<[String]>([])
    public init() {}
    public func write(line: [UInt8]) {
        var text = String(decoding: line, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        storage.withLock { $0.append(text) }
    }
    public var lines: [String] { storage.withLock { $0 } }
}

private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}
