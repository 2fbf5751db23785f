import Glibc
import Dispatch
import Synchronization

/// Where finished log lines go. One call per line, newline included.
public protocol LogSink: Sendable {
    /// Writes `line` now (after any deferred lines, so order is kept).
    func write(line: [UInt8])
    /// Accepts a line that may wait for the next `flush()` (the access log: its owner calls
    /// `flush()` before the connection's event loop waits again). Default: `write(line:)`.
    func writeDeferred(line: [UInt8])
    /// `writeDeferred(line:)` for the line `build` appends to the given buffer (it appends
    /// exactly one whole line). Lets a sink build lines in place. Default: a fresh array.
    func writeDeferred(building build: (inout [UInt8]) -> Void)
    /// Writes every deferred line. Default: nothing to do.
    func flush()
    /// Asks for the deferred lines to be written soon, without waiting for the write (the
    /// server calls this after each batch of requests). Default: `flush()`.
    func requestFlush()
}

extension LogSink {
    public func writeDeferred(line: [UInt8]) { write(line: line) }
    public func writeDeferred(building build: (inout [UInt8]) -> Void) {
        var line: [UInt8] = []
        line.reserveCapacity(256)
        build(&line)
        writeDeferred(line: line)
    }
    public func flush() {}
    public func requestFlush() { flush() }
}

/// Standard output, whole lines only: concurrent lines never interleave even past
/// `PIPE_BUF`. Immediate lines are written at once (after whatever was deferred). Deferred
/// lines (the access log) collect in a buffer that is written with one `write(2)` per flush.
///
/// The server asks for a flush after each batch of ready sockets (`requestFlush()`), and a
/// buffer past `flushThreshold` asks too; those writes happen on the sink's own serial queue,
/// so a slow reader of stdout (a disk under writeback, a container runtime's pipe) delays log
/// output, not responses. Only when `maxPendingBytes` are waiting does a caller write
/// synchronously itself: back-pressure rather than unbounded memory or lost lines.
/// `flush()` writes at once; shutdown ends with an immediate line ("stopped"), which flushes.
public final class StandardOutputSink: LogSink {
    /// Lines waiting for `flush()`.
    private let pending = Mutex<[UInt8]>([])
    /// Held while writing (order across flushes); holds the spare buffer swapped with `pending`.
    private let output = Mutex<[UInt8]>([])
    private let fd: Int32
    public let flushThreshold: Int
    /// Past this many waiting bytes, a deferred write flushes synchronously (back-pressure).
    public let maxPendingBytes: Int
    /// Writes requested flushes, off the callers' queues.
    private let writer = DispatchQueue(label: "almanac.log-writer", qos: .utility)
    /// A requested flush is queued on `writer` and has not started yet.
    private let flushQueued = Atomic<Bool>(false)

    public init(fileDescriptor: Int32 = 1, flushThreshold: Int = 64 * 1024, maxPendingBytes: Int = 4 * 1024 * 1024) {
        fd = fileDescriptor
        self.flushThreshold = flushThreshold
        self.maxPendingBytes = max(flushThreshold, maxPendingBytes)
    }

    public func write(line: [UInt8]) {
        output.withLock { spare in
            takePending(into: &spare)
            if !spare.isEmpty {
                writeAll(spare)
                spare.removeAll(keepingCapacity: true)
            }
            writeAll(line)
        }
    }

    public func writeDeferred(line: [UInt8]) {
        let size = pending.withLock { buffer -> Int in
            if buffer.capacity == 0 { buffer.reserveCapacity(flushThreshold) }
            buffer.append(contentsOf: line)
            return buffer.count
        }
        pendingGrew(to: size)
    }

    /// Appends the line to the pending buffer in place: no per-line array.
    public func writeDeferred(building build: (inout [UInt8]) -> Void) {
        let size = pending.withLock { buffer -> Int in
            if buffer.capacity == 0 { buffer.reserveCapacity(flushThreshold) }
            build(&buffer)
            return buffer.count
        }
        pendingGrew(to: size)
    }

    private func pendingGrew(to size: Int) {
        if size >= maxPendingBytes {
            flush()
        } else if size >= flushThreshold {
            requestFlush()
        }
    }

    /// Queues one flush on the sink's writer queue unless one is queued already; returns at once.
    /// Lines deferred after the queued flush has taken the buffer are left for the next request
    /// (the server asks after every batch) or for `flush()`.
    public func requestFlush() {
        // The server asks after every batch, also when nothing was logged (level above info).
        guard pending.withLock({ !$0.isEmpty }) else { return }
        guard !flushQueued.exchange(true, ordering: .acquiringAndReleasing) else { return }
        writer.async { [self] in
            flushQueued.store(false, ordering: .releasing)
            flush()
        }
    }

    public func flush() {
        output.withLock { spare in
            takePending(into: &spare)
            guard !spare.isEmpty else { return }
            writeAll(spare)
            spare.removeAll(keepingCapacity: true)
        }
    }

    /// Swaps the pending lines into `spare` (empty on entry), leaving `spare`'s storage behind.
    private func takePending(into spare: inout [UInt8]) {
        pending.withLock { buffer in
            guard !buffer.isEmpty else { return }
            swap(&buffer, &spare)
        }
    }

    /// One `write(2)` per call, looping only on a short write.
    private func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { raw in
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
