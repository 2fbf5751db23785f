import Synchronization

/// `X-Request-ID` handling: a client's id is echoed so it can correlate logs across hops;
/// anything else gets a cheap, process-unique id (`GeneratedRequestID`).
///
/// The id a response carries is held as a `RequestID` value: either the client's text or a
/// generated id kept inline as two integers. A cached hit writes the generated one into its
/// head as bytes and never makes a `String` of it (a 17-byte `String` is a heap allocation);
/// the text is made only when something asks for it (a log line, a problem's detail, a handler
/// reading `HTTPRequest.requestID`).
public enum RequestID: Sendable, Equatable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The client's id (or one a test or handler chose), as sent.
    case text(String)
    /// An id made by the server.
    case generated(GeneratedRequestID)

    public init(stringLiteral value: String) { self = .text(value) }

    /// The id as text (made on demand for a generated id).
    public var description: String {
        switch self {
        case .text(let text): return text
        case .generated(let id): return id.description
        }
    }

    /// Whether this is a `.text` id (a `String`, which may own heap storage).
    var isText: Bool {
        if case .text = self { return true }
        return false
    }

    /// How many bytes `write(into:)` writes.
    var byteCount: Int {
        switch self {
        case .text(let text): return text.utf8.count
        case .generated(let id): return id.byteCount
        }
    }

    /// Writes the id's bytes (the generated form straight from its integers).
    @inline(__always)
    func write(into out: inout ByteWriter) {
        switch self {
        case .text(let text): out.write(text)
        case .generated(let id): id.write(into: &out)
        }
    }

    /// A client-supplied id is kept when it is 1–128 visible ASCII characters (0x21–0x7E):
    /// such a value cannot split a header line or smuggle control bytes into logs.
    static func isAcceptable(_ value: String) -> Bool {
        var count = 0
        for byte in value.utf8 {
            guard byte >= 0x21 && byte <= 0x7E else { return false }
            count += 1
            if count > 128 { return false }
        }
        return count > 0
    }

    /// The id the response carries for a request whose header held `value`: the client's when
    /// acceptable, else one from `source`.
    static func resolve(_ value: String?, source: RequestIDSource) -> RequestID {
        if let value, isAcceptable(value) { return .text(value) }
        return .generated(source.next())
    }
}

/// A server-made request id, `pppppppp-nnnnnnnn` in lower-case hex: a per-process random prefix
/// and a counter (more than 8 counter digits only after 4 billion ids). Held as integers so
/// that making one allocates nothing.
public struct GeneratedRequestID: Sendable, Equatable, CustomStringConvertible {
    /// The random part (32 bits).
    let prefix: UInt32
    let counter: UInt64

    /// Digits of the counter part: at least 8.
    var counterDigits: Int { max(8, (64 - counter.leadingZeroBitCount + 3) / 4) }

    var byteCount: Int { 9 + counterDigits }

    @inline(__always)
    func write(into out: inout ByteWriter) {
        out.withUnsafeSpace(byteCount) { write(to: $0) }
    }

    /// Writes the `byteCount` bytes of the id at `buffer`: eight hex digits at a time from a
    /// 32-bit value, spread into the bytes of a word (no loop per digit, no table).
    @inline(__always)
    private func write(to buffer: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(buffer)
        raw.storeBytes(of: Self.hexWord(prefix), as: UInt64.self)
        buffer[8] = UInt8(ascii: "-")
        let digits = counterDigits
        let low = Self.hexWord(UInt32(truncatingIfNeeded: counter))
        if digits > 8 {
            // Past 4 billion ids: the digits above the low eight come first.
            let high = counter &>> 32
            for i in 0..<(digits - 8) {
                let nibble = UInt8(truncatingIfNeeded: (high &>> UInt64(4 * (digits - 9 - i))) & 0xF)
                buffer[9 + i] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
            }
        }
        raw.storeBytes(of: low, toByteOffset: 1 + digits, as: UInt64.self)
    }

    /// The eight lower-case hex digits of `value`, most significant first, as the bytes of a
    /// word in memory order.
    @inline(__always)
    static func hexWord(_ value: UInt32) -> UInt64 {
        // One nibble per byte, the most significant in the highest byte. (Typed constants and
        // masking shifts: literal-heavy operator chains are slow for the type checker.)
        let halves: UInt64 = 0x0000_FFFF
        let bytes: UInt64 = 0x0000_00FF_0000_00FF
        let nibbles: UInt64 = 0x000F_000F_000F_000F
        let six: UInt64 = 0x0606_0606_0606_0606
        let sixteens: UInt64 = 0x1010_1010_1010_1010
        let zeros: UInt64 = 0x3030_3030_3030_3030
        let letterGap: UInt64 = 39 // from '9' + 1 to 'a'
        var x = UInt64(value)
        x = ((x &>> 16) & halves) &<< 32 | (x & halves)
        x = ((x &>> 8) & bytes) &<< 16 | (x & bytes)
        x = ((x &>> 4) & nibbles) &<< 8 | (x & nibbles)
        // 0–9 → '0'–'9', 10–15 → 'a'–'f': a byte ≥ 10 gets 0x10 from the add of 6.
        let letters: UInt64 = ((x &+ six) & sixteens) &>> 4
        let ascii: UInt64 = x &+ zeros &+ letters &* letterGap
        // Memory order is little-endian: the most significant digit must come first.
        return ascii.byteSwapped
    }

    public var description: String {
        String(unsafeUninitializedCapacity: byteCount) { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            write(to: base)
            return byteCount
        }
    }
}

/// Where one event loop draws its generated request ids: a counter of its own, so a request
/// touches no memory another loop writes (a process-wide atomic counter was one shared cache
/// line bounced between the loops' cores on every hit). Loop `index` of `count` hands out
/// `index + 1`, `index + 1 + count`, …, so ids stay unique across the loops of a process; the
/// prefix is drawn at random once per process start (the system's random source), so ids are
/// unlikely to collide across restarts.
final class RequestIDSource: Sendable {
    private static let processPrefix = UInt32.random(in: 0...UInt32.max)

    private let prefix: UInt32
    private let stride: UInt64
    /// The next counter value. Atomic only to be `Sendable`: one loop's thread increments it.
    private let nextCounter: Atomic<UInt64>

    init(index: Int = 0, count: Int = 1, prefix: UInt32 = RequestIDSource.processPrefix) {
        self.prefix = prefix
        self.stride = UInt64(max(1, count))
        self.nextCounter = Atomic(UInt64(max(0, index)) + 1)
    }

    func next() -> GeneratedRequestID {
        let counter = nextCounter.add(stride, ordering: .relaxed).oldValue
        return GeneratedRequestID(prefix: prefix, counter: counter)
    }
}
