import HTTPServer
import Glibc

/// What a `RedisConnection` reports to the client that owns it (on the client's queue).
protocol RedisConnectionDelegate: AnyObject {
    /// The non-blocking connect finished; `error` is nil on success.
    func connectionEstablished(_ connection: RedisConnection, error: String?)
    /// A complete value arrived.
    func connection(_ connection: RedisConnection, received value: RESPValue)
    /// The connection broke: EOF, a socket error, or a RESP protocol error.
    func connection(_ connection: RedisConnection, failed reason: String)
}

/// One TCP connection to Redis, driven by a `SocketPoller` on the client's queue: bytes written
/// are queued and flushed in batches (every command submitted during one turn of the queue leaves
/// in one `send`), bytes read go through the `RESPParser`, and each complete value is handed to the
/// delegate. Closing is idempotent; events after it are ignored. Confined to the queue.
final class RedisConnection: SocketReadinessHandler, @unchecked Sendable {
    let fd: Int32
    let address: RedisAddress
    private let poller: SocketReadinessPoller<RedisConnection>
    private weak var delegate: (any RedisConnectionDelegate)?
    private var parser: RESPParser
    private var connecting: Bool
    private var output: [UInt8] = []
    private var outputStart = 0
    private var flushScheduled = false
    private var interest: SocketInterest
    private(set) var isClosed = false
    private static let readSize = 64 * 1024
    private var scratch = [UInt8](repeating: 0, count: RedisConnection.readSize)

    /// Registers `fd` with `poller`; `connecting` when its `connect` is still under way.
    init(fd: Int32, address: RedisAddress, connecting: Bool, poller: SocketReadinessPoller<RedisConnection>,
         limits: RESPParserLimits, delegate: any RedisConnectionDelegate) {
        self.fd = fd
        self.address = address
        self.poller = poller
        self.delegate = delegate
        self.parser = RESPParser(limits: limits)
        self.connecting = connecting
        self.interest = connecting ? .writing : .reading
        POSIX.setNoDelay(fd)
        if let failure = poller.register(self, fd: fd, interest: interest) {
            // A socket nobody reports on would hang every command until its timeout: fail it
            // now, once the owner holds it (a delegate call from inside init would come too early).
            poller.queue.async { [self] in fail("cannot watch the connection to \(address.text): \(failure)") }
        }
    }

    /// Queues `bytes`; they leave with everything else queued before the queue's next turn.
    func send(_ bytes: [UInt8]) {
        guard !isClosed else { return }
        output.append(contentsOf: bytes)
        guard !flushScheduled, !connecting else { return }
        flushScheduled = true
        poller.queue.async { [self] in
            flushScheduled = false
            flush()
        }
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        output = []
        let fd = self.fd
        // A failed removal needs nothing more: closing the descriptor drops it from epoll.
        _ = poller.unregister(fd: fd) { RedisSocket.closeDescriptor(fd) }
    }

    // MARK: - Poller events

    func writable() {
        guard !isClosed else { return }
        if connecting {
            connecting = false
            let error = RedisSocket.pendingError(fd)
            setInterest(.reading)
            delegate?.connectionEstablished(self, error: error == 0 ? nil : "connect to \(address.text): \(RedisSocket.errorText(error))")
            if !isClosed && outputStart < output.count { flush() }
            return
        }
        flush()
    }

    func readable() {
        guard !isClosed, !connecting else { return }
        var rounds = 0
        while rounds < 4 && !isClosed {
            rounds += 1
            let count = scratch.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                scratch.withUnsafeBytes { parser.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                deliver()
                if count < Self.readSize { return }
            } else if count == 0 {
                fail("connection closed by the server")
                return
            } else {
                let error = errno
                if error == EAGAIN || error == EWOULDBLOCK || error == EINTR { return }
                fail("read: \(RedisSocket.errorText(error))")
                return
            }
        }
    }

    // MARK: - Internals

    private func deliver() {
        while !isClosed {
            let value: RESPValue?
            do {
                value = try parser.next()
            } catch {
                fail(error.description)
                return
            }
            guard let value else { return }
            delegate?.connection(self, received: value)
        }
    }

    private func flush() {
        guard !isClosed, !connecting else { return }
        while outputStart < output.count {
            let sent = output.withUnsafeBytes { RedisSocket.send(fd, UnsafeRawBufferPointer(rebasing: $0[outputStart...])) }
            if sent > 0 {
                outputStart += sent
            } else {
                let error = errno
                if sent < 0 && (error == EAGAIN || error == EWOULDBLOCK) {
                    setInterest(SocketInterest.readingAndWriting)
                    return
                }
                if sent < 0 && error == EINTR { continue }
                fail("write: \(RedisSocket.errorText(error))")
                return
            }
        }
        output.removeAll(keepingCapacity: output.capacity <= 1 << 20)
        outputStart = 0
        setInterest(.reading)
    }

    private func setInterest(_ wanted: SocketInterest) {
        guard wanted != interest, !isClosed else { return }
        interest = wanted
        if let failure = poller.update(fd: fd, interest: wanted) {
            fail("cannot watch the connection to \(address.text): \(failure)")
        }
    }

    private func fail(_ reason: String) {
        guard !isClosed else { return }
        delegate?.connection(self, failed: reason)
        close()
    }
}
