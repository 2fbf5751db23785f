/// The W3C trace one request belongs to, as almanac takes part in it: the caller's trace (or a
/// new one when the caller sent no valid `traceparent`), the span almanac uses for this request,
/// and the caller's `tracestate` to pass on.
///
/// The span id is almanac's own, a child of the caller's span: it is what the access and warn
/// lines show as `span_id` and what every upstream request made for the request names as its
/// parent in `traceparent`, so an upstream's logs lead back to almanac's line for the request.
public struct TraceContext: Sendable, Equatable {
    public var traceIDHigh: UInt64
    public var traceIDLow: UInt64
    /// almanac's span for this request.
    public var spanID: UInt64
    /// The caller's span, or 0 when almanac started the trace.
    public var parentSpanID: UInt64
    /// The flags sent upstream: the caller's `sampled` bit, or 0 for a trace almanac started
    /// (almanac records no spans, so it never asks for sampling).
    public var flags: UInt8
    /// The caller's `tracestate`, validated and normalized (`TraceState.normalize`); empty when none.
    public var traceState: String

    public init(traceIDHigh: UInt64, traceIDLow: UInt64, spanID: UInt64, parentSpanID: UInt64, flags: UInt8, traceState: String) {
        self.traceIDHigh = traceIDHigh
        self.traceIDLow = traceIDLow
        self.spanID = spanID
        self.parentSpanID = parentSpanID
        self.flags = flags
        self.traceState = traceState
    }

    /// The trace of a request that came with `parent` (and its `tracestate` list, already
    /// normalized), or a new trace when it came without a valid one.
    public static func begin(from parent: TraceParent?, traceState: String = "") -> TraceContext {
        guard let parent else {
            let ids = TraceIDSource.nextTrace()
            return TraceContext(traceIDHigh: ids.traceIDHigh, traceIDLow: ids.traceIDLow, spanID: ids.spanID,
                                parentSpanID: 0, flags: 0, traceState: "")
        }
        return TraceContext(traceIDHigh: parent.traceIDHigh, traceIDLow: parent.traceIDLow, spanID: TraceIDSource.next(),
                            parentSpanID: parent.parentID, flags: parent.propagatedFlags, traceState: traceState)
    }

    /// The trace of the request the current task works for (set by the server around each
    /// handler that answers asynchronously; inherited by the cache loads and refreshes it
    /// starts). Nil outside a request: startup, timers.
    @TaskLocal public static var current: TraceContext?

    /// `traceparent` for an upstream request made for this request: version 00, this trace,
    /// almanac's span as the parent.
    public var traceparent: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(TraceParent.version00Length)
        bytes.append(contentsOf: [UInt8(ascii: "0"), UInt8(ascii: "0"), UInt8(ascii: "-")])
        appendTraceID(to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendSpanID(to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        bytes.append(Self.hexDigit(UInt64(flags >> 4)))
        bytes.append(Self.hexDigit(UInt64(flags & 0xF)))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The 32 hex digits of the trace id, as logged (`trace_id`).
    public var traceIDText: String { String(decoding: Self.hex(traceIDHigh, traceIDLow), as: UTF8.self) }
    /// The 16 hex digits of almanac's span id, as logged (`span_id`).
    public var spanIDText: String { String(decoding: Self.hex(spanID), as: UTF8.self) }

    /// Appends the trace id's 32 hex digits to `out` (the access line writes them in place).
    public func appendTraceID(to out: inout [UInt8]) {
        Self.appendHex(traceIDHigh, to: &out)
        Self.appendHex(traceIDLow, to: &out)
    }

    /// Appends the span id's 16 hex digits to `out`.
    public func appendSpanID(to out: inout [UInt8]) {
        Self.appendHex(spanID, to: &out)
    }

    /// The lowercase hex digit of `nibble` (0–15).
    @inline(__always)
    static func hexDigit(_ nibble: UInt64) -> UInt8 {
        UInt8(truncatingIfNeeded: nibble < 10 ? 0x30 &+ nibble : 0x57 &+ nibble)
    }

    /// Appends the 16 hex digits of `value`, formatted on the stack and appended in one copy
    /// (the access line of every request writes two or three of these).
    static func appendHex(_ value: UInt64, to out: inout [UInt8]) {
        var scratch: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &scratch) { raw in
            for i in 0..<16 { raw[i] = hexDigit((value >> UInt64(60 - 4 * i)) & 0xF) }
            out.append(contentsOf: UnsafeRawBufferPointer(raw))
        }
    }

    static func hex(_ values: UInt64...) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16 * values.count)
        for value in values { appendHex(value, to: &out) }
        return out
    }
}
