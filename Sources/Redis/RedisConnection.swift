import Transport
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

/// One TCP connection to Redis, driven by a `SocketReadinessPoller` on the client's queue: bytes written
/// are queued and flushed in batches (every command submitted during one turn of the queue leaves
/// in one `send`), bytes read go through the `RESPParser`, and each complete value is handed to the
/// delegate. Closing is idempotent; events after it are ignored. Confined to the queue.
///
/// With a `RedisTLSSession` (`rediss://`) the same loop runs over TLS, still non-blocking: once
/// TCP is connected the handshake is stepped on every readiness event until it is done (only
/// then is the connection "established"), and a read or write that OpenSSL says needs the other
/// direction first (`wantWrite` while reading, `wantRead` while writing) widens the poller
/// interest and is retried when that direction is ready. Bytes OpenSSL already decrypted are
/// drained before returning, since the poller cannot see them.
final class RedisConnection: SocketReadinessHandler, @unchecked Sendable {
    let fd: Int32
    let address: RedisAddress
    private let poller: SocketReadinessPoller<RedisConnection>
    private weak var delegate: (any RedisConnectionDelegate)?
    private var parser: RESPParser
    private var connecting: Bool
    private let tls: RedisTLSSession?
    /// TCP is connected and the TLS handshake is under way.
    private var handshakingTLS = false
    /// OpenSSL needs the socket writable before reading can go on (or readable before writing).
    private var readWaitsForWritable = false
    private var writeWaitsForReadable = false
    private var output: [UInt8] = []
    private var outputStart = 0
    private var flushScheduled = false
    private var interest: SocketInterest
    private(set) var isClosed = false
    private static let readSize = 64 * 1024
    private var scratch = [UInt8](repeating: 0, count: RedisConnection.readSize)

    /// Registers `fd` with `poller`; `connecting` when its `connect` is still under way; `tls`
    /// when the connection speaks TLS (its handshake runs once TCP is connected).
    init(fd: Int32, address: RedisAddress, connecting: Bool, poller: SocketReadinessPoller<RedisConnection>,
         limits: RESPParserLimits, tls: RedisTLSSession? = nil, delegate: any RedisConnectionDelegate) {
        self.fd = fd
        self.tls = tls
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
        guard !flushScheduled, !connecting, !handshakingTLS else { return }
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
        tls?.close()
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
            if error != 0 {
                setInterest(.reading)
                delegate?.connectionEstablished(self, error: "connect to \(address.text): \(RedisSocket.errorText(error))")
                return
            }
            if tls != nil {
                handshakingTLS = true
                stepHandshake()
                return
            }
            established()
            return
        }
        if handshakingTLS {
            stepHandshake()
            return
        }
        if readWaitsForWritable {
            readWaitsForWritable = false
            readable()
            if isClosed { return }
        }
        flush()
    }

    func readable() {
        guard !isClosed, !connecting else { return }
        if handshakingTLS {
            stepHandshake()
            return
        }
        if writeWaitsForReadable {
            writeWaitsForReadable = false
            flush()
            if isClosed { return }
        }
        if let tls {
            readTLS(tls)
            return
        }
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

    // MARK: - TLS

    /// TCP (and TLS, if any) is up: tell the owner, then send what waited.
    private func established() {
        setInterest(.reading)
        delegate?.connectionEstablished(self, error: nil)
        if !isClosed && outputStart < output.count { flush() }
    }

    private func stepHandshake() {
        guard let tls else { return }
        switch tls.handshake() {
        case .done:
            handshakingTLS = false
            established()
        case .wantRead:
            setInterest(.reading)
        case .wantWrite:
            setInterest(.writing)
        case .failed(let reason):
            handshakingTLS = false
            setInterest(.reading)
            delegate?.connectionEstablished(self, error: "TLS with \(address.text): \(reason)")
        }
    }

    /// Reads until OpenSSL needs the socket again; a bounded number of rounds per event, the rest
    /// (bytes OpenSSL holds, which no poller event would announce) on the queue's next turn.
    private func readTLS(_ tls: RedisTLSSession) {
        var rounds = 0
        while !isClosed {
            rounds += 1
            if rounds > 8 {
                poller.queue.async { [self] in readable() }
                return
            }
            let outcome = scratch.withUnsafeMutableBytes { tls.read(into: $0) }
            switch outcome {
            case .bytes(let count):
                scratch.withUnsafeBytes { parser.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                deliver()
            case .wantRead:
                return
            case .wantWrite:
                readWaitsForWritable = true
                setInterest(.readingAndWriting)
                return
            case .closed, .failed:
                fail(outcome.endingReason ?? "TLS failure")
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
        guard !isClosed, !connecting, !handshakingTLS else { return }
        if let tls {
            flushTLS(tls)
            return
        }
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

    private func flushTLS(_ tls: RedisTLSSession) {
        while outputStart < output.count {
            let outcome = output.withUnsafeBytes { tls.write(UnsafeRawBufferPointer(rebasing: $0[outputStart...])) }
            switch outcome {
            case .bytes(let sent):
                outputStart += sent
            case .wantWrite:
                setInterest(.readingAndWriting)
                return
            case .wantRead:
                writeWaitsForReadable = true
                setInterest(.reading)
                return
            case .closed, .failed:
                fail(outcome.endingReason ?? "TLS failure")
                return
            }
        }
        output.removeAll(keepingCapacity: output.capacity <= 1 << 20)
        outputStart = 0
        setInterest(readWaitsForWritable ? .readingAndWriting : .reading)
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
