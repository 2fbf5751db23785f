import Testing
@testable import HTTP1

/// A comparable summary of one parser event (`needMore` is not an event worth comparing).
enum EventDigest: Equatable, CustomStringConvertible {
    case expectContinue
    case request(method: String, target: String, path: String, query: String, version: String,
                 headers: [String], body: [UInt8], keepAlive: Bool)
    case error(Int)

    init?(_ event: ParserEvent) {
        switch event {
        case .needMore: return nil
        case .expectContinue: self = .expectContinue
        case .request(let r, let keepAlive):
            self = .request(method: r.method, target: r.target, path: r.path, query: r.rawQuery,
                            version: r.version.description, headers: r.headers.map { "\($0.name): \($0.value)" },
                            body: r.body, keepAlive: keepAlive)
        case .error(let e): self = .error(e.status.code)
        }
    }

    var description: String {
        switch self {
        case .expectContinue: return "100-continue"
        case .request(let m, let t, _, _, let v, let h, let b, let k):
            return "\(m) \(t) \(v) \(h) body=\(b.count) keepAlive=\(k)"
        case .error(let code): return "error \(code)"
        }
    }

    var isRequestOrError: Bool {
        if case .expectContinue = self { return false }
        return true
    }
}

extension String {
    /// Test requests are written with `\n`; this turns them into CRLF lines.
    var crlf: [UInt8] {
        var out: [UInt8] = []
        for b in utf8 {
            if b == 0x0A { out.append(0x0D) }
            out.append(b)
        }
        return out
    }
}

/// For the word-at-a-time scans: every byte value at every position of a run of 0…19 `a`s (one
/// `a` before it, two after, so the run starts unaligned and has bytes beyond its end). `check`
/// gets the bytes, the run's range and a label, and returns false to stop at the first failure.
func forEveryBytePlacedEverywhere(_ check: (_ bytes: [UInt8], _ start: Int, _ end: Int, _ label: String) -> Bool) {
    for length in 0...19 {
        for position in 0..<max(length, 1) {
            for byte in 0...255 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length + 3)
                if length > 0 { bytes[1 + position] = UInt8(byte) }
                if !check(bytes, 1, 1 + length, "length \(length), byte \(byte) at \(position)") { return }
            }
        }
    }
}

/// Feeds `chunks` one after the other, draining `next()` after each until it needs more
/// bytes or fails. Returns every event but `needMore`.
func feed(_ chunks: [[UInt8]], limits: RequestParserLimits = RequestParserLimits()) -> [EventDigest] {
    var parser = RequestParser(limits: limits)
    var events: [EventDigest] = []
    for chunk in chunks {
        parser.append(chunk)
        while true {
            let event = parser.next()
            guard let digest = EventDigest(event) else { break }
            events.append(digest)
            if case .error = digest { return events }
        }
    }
    return events
}

func feedWhole(_ bytes: [UInt8], limits: RequestParserLimits = RequestParserLimits()) -> [EventDigest] {
    feed([bytes], limits: limits)
}

func feedByteByByte(_ bytes: [UInt8], limits: RequestParserLimits = RequestParserLimits()) -> [EventDigest] {
    feed(bytes.map { [$0] }, limits: limits)
}

/// Parses `bytes` whole and returns the first event that is not `needMore`.
func firstEvent(_ bytes: [UInt8], limits: RequestParserLimits = RequestParserLimits()) -> ParserEvent {
    var parser = RequestParser(limits: limits)
    parser.append(bytes)
    return parser.next()
}

func firstRequest(_ text: String, limits: RequestParserLimits = RequestParserLimits()) -> (HTTPRequest, Bool)? {
    firstRequest(text.crlf, limits: limits)
}

func firstRequest(_ bytes: [UInt8], limits: RequestParserLimits = RequestParserLimits()) -> (HTTPRequest, Bool)? {
    var parser = RequestParser(limits: limits)
    parser.append(bytes)
    while true {
        switch parser.next() {
        case .request(let r, let k): return (r, k)
        case .expectContinue: continue
        case .needMore, .error: return nil
        }
    }
}

/// The status code of the first error `bytes` produce whole, or nil when there is none.
func errorCode(_ text: String, limits: RequestParserLimits = RequestParserLimits()) -> Int? {
    errorCode(text.crlf, limits: limits)
}

func errorCode(_ bytes: [UInt8], limits: RequestParserLimits = RequestParserLimits()) -> Int? {
    for event in feedWhole(bytes, limits: limits) {
        if case .error(let code) = event { return code }
    }
    return nil
}

func parseError(_ text: String, limits: RequestParserLimits = RequestParserLimits()) -> ParseError? {
    var parser = RequestParser(limits: limits)
    parser.append(text.crlf)
    while true {
        switch parser.next() {
        case .error(let e): return e
        case .request, .expectContinue: continue
        case .needMore: return nil
        }
    }
}
