import Base
import Glibc
import HTTP1

/// Structured logging to stdout, one line per event: JSON lines by default (for log
/// shippers), `key=value` text on request. Every message and field passes the `Redactor`
/// first, at every level. Thread-safe; lines are never split. Access-log lines may be
/// batched by the sink until `requestAccessLogFlush()` (the server calls it after each batch
/// of requests; the sink writes them off the event loops) or `flushAccessLog()`; every
/// other line is written at once, after any batched ones.
public final class Logger: Sendable {
    public struct Configuration: Sendable {
        /// Lines below this level are dropped before any formatting work. Default `info`.
        public var level: LogLevel = .info
        /// Default `json`.
        public var format: LogFormat = .json
        /// Default: redacts secret-looking URL parameters and credentials only.
        public var redactor = Redactor()
        public init(level: LogLevel = .info, format: LogFormat = .json, redactor: Redactor = Redactor()) {
            self.level = level
            self.format = format
            self.redactor = redactor
        }
    }

    /// A field of a log line; values are strings or numbers.
    public enum Value: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case string(String)
        case int(Int)
        case double(Double)
        public init(stringLiteral value: String) { self = .string(value) }
        public init(integerLiteral value: Int) { self = .int(value) }
    }

    public let configuration: Configuration
    private let sink: any LogSink
    private let accessParts: AccessParts

    public init(configuration: Configuration = Configuration(), sink: any LogSink = StandardOutputSink()) {
        self.configuration = configuration
        self.sink = sink
        self.accessParts = AccessParts(redactor: configuration.redactor)
    }

    public func isEnabled(_ level: LogLevel) -> Bool { level >= configuration.level }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String, _ fields: KeyValuePairs<String, Value> = [:]) {
        guard isEnabled(level) else { return }
        emit(level, message(), fields)
    }

    public func debug(_ message: @autoclosure () -> String, _ fields: KeyValuePairs<String, Value> = [:]) {
        log(.debug, message(), fields)
    }

    public func info(_ message: @autoclosure () -> String, _ fields: KeyValuePairs<String, Value> = [:]) {
        log(.info, message(), fields)
    }

    public func warn(_ message: @autoclosure () -> String, _ fields: KeyValuePairs<String, Value> = [:]) {
        log(.warn, message(), fields)
    }

    /// A `warn` line written on behalf of a client's request: `fields`, then the request's
    /// `request_id`, `trace_id` and `span_id` (`RequestLogContext`), as on its access line.
    public func warn(_ message: @autoclosure () -> String, _ fields: KeyValuePairs<String, Value> = [:],
                     for request: RequestLogContext) {
        guard isEnabled(.warn) else { return }
        emit(.warn, message(), fields, then: request.fields)
    }

    public func error(_ message: @autoclosure () -> String, _ fields: KeyValuePairs<String, Value> = [:]) {
        log(.error, message(), fields)
    }

    /// The access-log line of one request (docs/operations.md "Logs"): logged at `info`, possibly held by the
    /// sink until `requestAccessLogFlush()` or `flushAccessLog()`.
    public func access(_ entry: AccessLogEntry) {
        guard isEnabled(.info) else { return }
        guard configuration.format == .json else {
            emit(.info, deferred: true, "request", Logger.accessFields(entry))
            return
        }
        // The JSON line is built straight into the sink's buffer from constant parts (the
        // same bytes `emit` would write for `accessFields`; see `AccessLineTests`).
        sink.writeDeferred { bytes in appendAccessLine(entry, to: &bytes) }
    }

    /// The access line's fields, in order, for the generic `emit` path.
    static func accessFields(_ entry: AccessLogEntry) -> KeyValuePairs<String, Value> {
        [
            "method": .string(entry.method),
            "path": .string(entry.path),
            "status": .int(entry.status),
            "bytes": .int(entry.bytes),
            "duration_ms": .double((entry.durationSeconds * 1_000_000).rounded() / 1000),
            "request_id": .string(entry.requestID),
            "remote": .string(entry.remoteAddress),
            "trace_id": .string(entry.trace.traceIDText),
            "span_id": .string(entry.trace.spanIDText),
        ]
    }

    /// `{"time":"…","level":"info","msg":"request","method":…}` + newline, as `emit` formats it.
    func appendAccessLine(_ entry: AccessLogEntry, to bytes: inout [UInt8]) {
        let redactor = configuration.redactor
        Self.appendLiteral(#"{"time":""#, to: &bytes)
        let now = Self.wallClockNow()
        TimestampText.appendISO8601Milliseconds(seconds: now.seconds, milliseconds: now.milliseconds, to: &bytes)
        bytes.append(contentsOf: accessParts.afterTime)
        redactor.appendRedactedJSONString(entry.method, to: &bytes)
        Self.appendLiteral(#","path":"#, to: &bytes)
        redactor.appendRedactedJSONString(entry.path, to: &bytes)
        Self.appendLiteral(#","status":"#, to: &bytes)
        ASCIIDecimal.append(entry.status, to: &bytes)
        Self.appendLiteral(#","bytes":"#, to: &bytes)
        ASCIIDecimal.append(entry.bytes, to: &bytes)
        Self.appendLiteral(#","duration_ms":"#, to: &bytes)
        DecimalBytes.appendMilliseconds(microseconds: (entry.durationSeconds * 1_000_000).rounded(), to: &bytes)
        Self.appendLiteral(#","request_id":"#, to: &bytes)
        redactor.appendRedactedJSONString(entry.requestID, to: &bytes)
        Self.appendLiteral(#","remote":"#, to: &bytes)
        redactor.appendRedactedJSONString(entry.remoteAddress, to: &bytes)
        Self.appendLiteral(#","trace_id":""#, to: &bytes)
        entry.trace.appendTraceID(to: &bytes)
        Self.appendLiteral(#"","span_id":""#, to: &bytes)
        entry.trace.appendSpanID(to: &bytes)
        Self.appendLiteral("\"}\n", to: &bytes)
    }

    /// A literal's bytes in one copy (appending a literal's `.utf8` view goes byte by byte).
    @inline(__always)
    private static func appendLiteral(_ literal: StaticString, to bytes: inout [UInt8]) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// The constant bytes of an access line, formatted (and redacted) once.
    private struct AccessParts: Sendable {
        /// `","level":"info","msg":"request","method":`
        var afterTime: [UInt8]
        init(redactor: Redactor) {
            var bytes = Array(#"","level":""#.utf8)
            bytes.append(contentsOf: LogLevel.info.rawValue.utf8)
            bytes.append(contentsOf: #"","msg":"#.utf8)
            JSONText.appendString(redactor.redact("request"), to: &bytes)
            bytes.append(UInt8(ascii: ","))
            JSONText.appendString("method", to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            afterTime = bytes
        }
    }

    /// Writes the access-log lines the sink holds, now.
    public func flushAccessLog() { sink.flush() }

    /// Asks the sink to write the access-log lines it holds soon, without waiting (the server
    /// calls this after each batch of requests, on a server event loop that must not block).
    public func requestAccessLogFlush() { sink.requestFlush() }

    /// Formats and writes one line: `fields`, then `more` (a request's ids).
    private func emit(_ level: LogLevel, deferred: Bool = false, _ message: String, _ fields: KeyValuePairs<String, Value>,
                      then more: KeyValuePairs<String, Value> = [:]) {
        let redactor = configuration.redactor
        let now = Self.wallClockNow()
        let time = TimestampText.iso8601Milliseconds(seconds: now.seconds, milliseconds: now.milliseconds)
        var line: String
        switch configuration.format {
        case .json:
            // Built as bytes: no intermediate Strings per field (this runs once per request).
            var bytes: [UInt8] = []
            bytes.reserveCapacity(256)
            bytes.append(contentsOf: #"{"time":""#.utf8)
            bytes.append(contentsOf: time.utf8)
            bytes.append(contentsOf: #"","level":""#.utf8)
            bytes.append(contentsOf: level.rawValue.utf8)
            bytes.append(contentsOf: #"","msg":"#.utf8)
            JSONText.appendString(redactor.redact(message), to: &bytes)
            for index in 0..<(fields.count + more.count) {
                let (key, value) = Self.field(index, of: fields, then: more)
                bytes.append(UInt8(ascii: ","))
                JSONText.appendString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                switch value {
                case let .string(s): JSONText.appendString(redactor.redact(s), to: &bytes)
                case let .int(i): ASCIIDecimal.append(i, to: &bytes)
                case let .double(d): DecimalBytes.appendJSON(d, to: &bytes)
                }
            }
            bytes.append(contentsOf: "}\n".utf8)
            if deferred { sink.writeDeferred(line: bytes) } else { sink.write(line: bytes) }
            return
        case .text:
            line = "\(time) \(level.rawValue.uppercased()) \(TextFormat.value(redactor.redact(message), bare: true))"
            for index in 0..<(fields.count + more.count) {
                let (key, value) = Self.field(index, of: fields, then: more)
                line += " \(key)="
                switch value {
                case let .string(s): line += TextFormat.value(redactor.redact(s), bare: false)
                case let .int(i): line += String(i)
                case let .double(d): line += String(d)
                }
            }
            line += "\n"
        }
        if deferred { sink.writeDeferred(line: Array(line.utf8)) } else { sink.write(line: Array(line.utf8)) }
    }

    /// The `index`th field of `fields` followed by `more` (no joined collection per line).
    @inline(__always)
    private static func field(_ index: Int, of fields: KeyValuePairs<String, Value>,
                              then more: KeyValuePairs<String, Value>) -> (key: String, value: Value) {
        index < fields.count ? fields[index] : more[index - fields.count]
    }

    /// The wall clock now (every log line's `time`), read with `clock_gettime`: no `Date` per line.
    private static func wallClockNow() -> (seconds: Int, milliseconds: Int) {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return (Int(ts.tv_sec), Int(ts.tv_nsec) / 1_000_000)
    }
}

/// `text` format values: quoted when they hold spaces, quotes or `=`, and never a raw line
/// break (a message must not forge a second log line).
enum TextFormat {
    static func value(_ s: String, bare: Bool) -> String {
        let needsQuotes = s.isEmpty || s.unicodeScalars.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0.value < 0x20 }
        if !needsQuotes || (bare && !s.unicodeScalars.contains { $0.value < 0x20 }) { return s }
        return JSONText.quoted(s)
    }
}

/// Doubles written as JSON numbers straight into a byte buffer, spelled exactly as Swift's
/// `String(_:)` spells them (integers: `ASCIIDecimal`).
enum DecimalBytes {
    /// A JSON number as `emit` writes a `Double` field: `String(d)`, or `null` when not finite.
    static func appendJSON(_ d: Double, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: (d.isFinite ? String(d) : "null").utf8)
    }

    /// `String(micros / 1000)` for an integral `micros` (what `duration_ms` holds). Below 1e15
    /// the quotient's shortest round-trip spelling is exactly the decimal `n/1000` with its
    /// trailing fraction zeros dropped (at most 15 significant digits name one `Double`), so
    /// it is written from the integer; anything else (negative, huge, NaN) takes `String`.
    static func appendMilliseconds(microseconds micros: Double, to bytes: inout [UInt8]) {
        guard micros.sign == .plus, micros < 1e15 else {
            appendJSON(micros / 1000, to: &bytes)
            return
        }
        let n = Int(micros)
        ASCIIDecimal.append(n / 1000, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        var fraction = n % 1000
        if fraction == 0 {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        var width = 3
        while fraction % 10 == 0 { fraction /= 10; width -= 1 }
        if width == 3 {
            bytes.append(UInt8(truncatingIfNeeded: 48 + fraction / 100))
            bytes.append(UInt8(truncatingIfNeeded: 48 + fraction / 10 % 10))
            bytes.append(UInt8(truncatingIfNeeded: 48 + fraction % 10))
        } else if width == 2 {
            bytes.append(UInt8(truncatingIfNeeded: 48 + fraction / 10))
            bytes.append(UInt8(truncatingIfNeeded: 48 + fraction % 10))
        } else {
            bytes.append(UInt8(truncatingIfNeeded: 48 + fraction))
        }
    }
}
