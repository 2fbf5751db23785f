import Base

/// A pure, incremental HTTP/1.1 request parser (RFC 9112): bytes in, requests out, no I/O.
///
/// Append bytes as they arrive and call `next()` until it says `.needMore`. Pipelined
/// requests come out one per call, in order. Limits are enforced while bytes arrive, so a
/// peer can never make the parser hold more than a limit's worth of an unfinished head.
///
/// The parser is strict where leniency has caused request smuggling: a bare LF, a bare CR,
/// obs-fold, whitespace before a colon, conflicting framing fields or an unknown transfer
/// coding end the connection with an error instead of being guessed at.
///
/// Work is O(n) in the bytes received however they are split: the line scan resumes where
/// it stopped, each line is interpreted once when its LF arrives, body bytes are copied
/// once, and consumed bytes are dropped from the buffer when that is cheap (amortised).
public struct RequestParser: Sendable {
    enum State: Sendable {
        case requestLine
        case headerLines
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        /// After a chunk's data: `sawCR` once its CR arrived, awaiting LF.
        case chunkDataEnd(sawCR: Bool)
        case trailerLines
        case failed(ParseError, ParserPhase)
    }

    let limits: RequestParserLimits
    /// Received bytes in `buffer[0..<bufferEnd]`. The array only grows (to the most ever
    /// buffered at once); emptying or compacting moves `bufferEnd`, so a request costs no
    /// array reallocation or resize, only the copies of its bytes.
    var buffer: [UInt8] = []
    var bufferEnd = 0
    /// First byte not yet consumed.
    var readIndex = 0
    /// Where the search for the current line's LF resumes (≥ readIndex).
    var scanIndex = 0
    var state = State.requestLine
    var pending = PendingRequest()
    var parts = RequestParts()
    /// Where the current head's field lines start in `buffer`. While the header section
    /// arrives its bytes stay buffered from here (compaction keeps them), so each field is
    /// recorded as a `FieldSpan` and copied once, with all the others, when the head completes.
    var headStart = 0
    /// The current head's fields so far (`fieldSpans[0..<fieldSpanCount]`), relative to
    /// `headStart`; the array keeps its elements between requests and is overwritten.
    var fieldSpans: [FieldSpan] = []
    var fieldSpanCount = 0
    /// Set when the head announced `Expect: 100-continue` and content; cleared once reported.
    var expectContinuePending = false

    public init(limits: RequestParserLimits = RequestParserLimits()) {
        self.limits = limits
    }

    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty, !isFailed else { return }
        compact()
        store(bytes.assumingMemoryBound(to: UInt8.self))
    }

    public mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, !isFailed else { return }
        compact()
        bytes.withUnsafeBufferPointer { store($0) }
    }

    /// Puts `bytes` at `bufferEnd`: over the array's spare elements, and appended past them.
    private mutating func store(_ bytes: UnsafeBufferPointer<UInt8>) {
        let inPlace = Swift.min(bytes.count, buffer.count - bufferEnd)
        if inPlace > 0, let source = bytes.baseAddress {
            let at = bufferEnd
            buffer.withUnsafeMutableBufferPointer { target in
                if let base = target.baseAddress { UnsafeMutableRawPointer(base + at).copyMemory(from: source, byteCount: inPlace) }
            }
        }
        if inPlace < bytes.count {
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[inPlace...]))
        }
        bufferEnd += bytes.count
    }

    /// Parses as far as the buffered bytes allow. Call repeatedly: pipelined requests come out one per call, in order.
    public mutating func next() -> ParserEvent {
        if case .failed(let error, _) = state { return .error(error) }
        // Between requests with nothing buffered (every keep-alive request ends here once):
        // what the state machine would answer, without running it.
        if case .requestLine = state, readIndex == bufferEnd { return .needMore }
        let bytes = buffer  // a second reference, not a copy: `buffer` is not mutated below
        let end = bufferEnd
        return bytes.withUnsafeBufferPointer { step(UnsafeBufferPointer(rebasing: $0[0..<end])) }
    }

    public var phase: ParserPhase {
        switch state {
        case .requestLine: return readIndex < bufferEnd ? .head : .idle
        case .headerLines: return .head
        case .fixedBody, .chunkSize, .chunkData, .chunkDataEnd, .trailerLines: return .body
        case .failed(_, let phase): return phase
        }
    }

    /// Bytes received but not yet consumed into a request (a partial head, or pipelined
    /// requests the server has not asked for yet). Body bytes move out of this count as
    /// they are copied into the request being built.
    public var bufferedByteCount: Int { bufferEnd - readIndex }

    var isFailed: Bool {
        if case .failed = state { return true }
        return false
    }

    // MARK: - Buffer

    /// Drops consumed bytes when that costs no more than the bytes consumed since the last
    /// compaction, so copying stays O(n) overall and the buffer stays near the unconsumed size.
    /// The field lines of a head still arriving are kept (from `headStart`): the fields read
    /// so far point into them.
    mutating func compact() {
        let keptFrom: Int
        if case .headerLines = state { keptFrom = headStart } else { keptFrom = readIndex }
        guard keptFrom > 0 else { return }
        if keptFrom == bufferEnd {
            bufferEnd = 0
        } else if keptFrom >= bufferEnd - keptFrom {
            let kept = bufferEnd - keptFrom
            buffer.withUnsafeMutableBufferPointer { all in
                if let base = all.baseAddress { UnsafeMutableRawPointer(base).copyMemory(from: base + keptFrom, byteCount: kept) }  // overlapping: memmove
            }
            bufferEnd = kept
        } else {
            return
        }
        scanIndex -= keptFrom
        readIndex -= keptFrom
        headStart = headStart >= keptFrom ? headStart - keptFrom : 0
    }

    /// Whether the parser holds more memory than a typical request needs (a large buffer or
    /// room for many fields), though nothing is buffered: an idle connection may replace it.
    public var holdsSpareMemory: Bool {
        buffer.capacity > Self.keptBufferCapacity || fieldSpans.capacity > Self.keptFieldCapacity
    }

    /// Buffer capacity an idle parser may keep (a typical request head fits).
    static let keptBufferCapacity = 256
    /// Field spans an idle parser may keep room for (a typical head has fewer fields).
    static let keptFieldCapacity = 16

    @inline(__always)
    mutating func consume(upTo index: Int) {
        readIndex = index
        if scanIndex < index { scanIndex = index }
    }

    /// The index of the LF ending the line that starts at `readIndex`, if it has arrived.
    /// Bytes already searched are never searched again.
    mutating func findLineFeed(_ p: UnsafeBufferPointer<UInt8>) -> Int? {
        if scanIndex < readIndex { scanIndex = readIndex }
        guard scanIndex < p.count, let base = p.baseAddress else { return nil }
        if let hit = ByteSearch.firstIndex(of: ParseByte.lf, in: base, from: scanIndex, to: p.count) {
            return hit
        }
        scanIndex = p.count
        return nil
    }

    /// The shortest content (bytes before CRLF) the unfinished line at `readIndex` can
    /// still have: every buffered byte but a final CR, which may be the line's own.
    /// Incremental limit checks compare this with the limit, so they fail exactly when
    /// the complete line would.
    func minimumContentOfUnfinishedLine(_ p: UnsafeBufferPointer<UInt8>) -> Int {
        let count = p.count - readIndex
        return count > 0 && p[p.count - 1] == ParseByte.cr ? count - 1 : count
    }

    // MARK: - The state machine

    /// Runs the state machine until it needs more bytes, completes a request or fails (then
    /// the failure is sticky: `state` keeps it with the phase it happened in).
    mutating func step(_ p: UnsafeBufferPointer<UInt8>) -> ParserEvent {
        while true {
            let outcome: StepOutcome
            switch state {
            case .requestLine: outcome = stepRequestLine(p)
            case .headerLines: outcome = stepHeaderLine(p)
            case .fixedBody(let remaining): outcome = stepFixedBody(p, remaining: remaining)
            case .chunkSize: outcome = stepChunkSize(p)
            case .chunkData(let remaining): outcome = stepChunkData(p, remaining: remaining)
            case .chunkDataEnd(let sawCR): outcome = stepChunkDataEnd(p, sawCR: sawCR)
            case .trailerLines: outcome = stepTrailerLine(p)
            case .failed(let error, _): return .error(error)
            }
            switch outcome {
            case .continue: continue
            case .needMore:
                if expectContinuePending {
                    expectContinuePending = false
                    return .expectContinue
                }
                return .needMore
            case .complete:
                return completeRequest()
            case .fail(let error):
                state = .failed(error, phase)
                return .error(error)
            }
        }
    }

    /// What one step of the state machine did. Small on purpose (the finished request is made
    /// by `completeRequest` straight into the event `step` returns, never carried through here).
    enum StepOutcome {
        /// Progress was made; run the (possibly new) state again.
        case `continue`
        case needMore
        /// The pending request is whole.
        case complete
        case fail(ParseError)
    }

    /// Hands the request out and gets ready for the next one on the connection. Its parts
    /// are moved into it (swapped out for nothing: no copy, no release).
    mutating func completeRequest() -> ParserEvent {
        var method: String?
        swap(&method, &parts.method)
        var rawTarget: String?
        swap(&rawTarget, &parts.rawTarget)
        var routedTarget: String?
        swap(&routedTarget, &parts.routedTarget)
        var authority: String?
        swap(&authority, &parts.authority)
        var received: ReceivedFields?
        swap(&received, &parts.received)
        var body: [UInt8] = []
        swap(&body, &parts.body)
        let queryMark = parts.queryMark
        let keepAlive = pending.keepAlive
        let version = pending.version
        let serverReadFields = pending.serverReadFields
        pending = PendingRequest()
        expectContinuePending = false
        state = .requestLine
        // A head always has a request line (method and target) before it completes; were one
        // missing, the connection fails like any other parse error rather than trap.
        guard let method = consume method, let rawTarget = consume rawTarget, let routedTarget = consume routedTarget else {
            let error = ParseError(status: .internalServerError, detail: "The request line was lost")
            state = .failed(error, .head)
            return .error(error)
        }
        var headers = HTTPHeaders(received: consume received)
        if let authority = consume authority {
            headers.set("Host", authority)  // RFC 9112 §3.2.2: the target's authority wins
        }
        return .request(HTTPRequest(method: method, target: rawTarget, routedTarget: routedTarget,
                                    queryMark: queryMark, version: version, headers: headers,
                                    body: consume body, serverReadFields: serverReadFields),
                        keepAlive: keepAlive)
    }
}
