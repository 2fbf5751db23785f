import HTTPServer

/// Structured logging to stdout, one line per event: JSON lines by default (for log
/// shippers), `key=value` text on request. Every message and field passes the `Redactor`
/// first, at every level. Thread-safe; a line is one `write(2)`.
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

    public init(configuration: Configuration = Configuration(), sink: any LogSink = StandardOutputSink()) {
        self.configuration = configuration
        self.sink = sink
    }

    public func isEnabled(_ level: LogLevel) -> Bool { level >= configuration.level }

    public func log(_ level: LogLevel, _ message: @autoclosure () -> String, _ fields: KeyValuePairs<String, Value> = [:]) {
        guard isEnabled(level) else { return }
        emit(level, message(), fields)
    }

    public func debug(_ message: @autoclosure () -> String, _ fields: KeyValuePairs<String, Value> = [:]) {
        guard isEnabled(.debug) else { return }
        emit(.debug, message(), fields)
    }

    public func info(_ message: @autoclosure () -> String, _ fields: KeyValuePairs<String, Value> = [:]) {
        guard isEnabled(.info) else { return }
        emit(.info, message(), fields)
    }

    public func warn(_ message: @autoclosure () -> String, _ fields: KeyValuePairs<String, Value> = [:]) {
        guard isEnabled(.warn) else { return }
        emit(.warn, message(), fields)
    }

    public func error(_ message: @autoclosure () -> String, _ fields: KeyValuePairs<String, Value> = [:]) {
        guard isEnabled(.error) else { return }
        emit(.error, message(), fields)
    }

    /// The access-log line of one request (API.md §6): logged at `info`.
    public func access(_ entry: AccessLogEntry) {
        guard isEnabled(.info) else { return }
        emit(.info, "request", [
            "method": .string(entry.method),
            "path": .string(entry.path),
            "status": .int(entry.status),
            "bytes": .int(entry.bytes),
            "duration_ms": .double((entry.durationSeconds * 1_000_000).rounded() / 1000),
            "request_id": .string(entry.requestID),
            "remote": .string(entry.remoteAddress),
        ])
    }

    private func emit(_ level: LogLevel, _ message: String, _ fields: KeyValuePairs<String, Value>) {
        let redactor = configuration.redactor
        let time = LogTimestamp.now()
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
            for (key, value) in fields {
                bytes.append(UInt8(ascii: ","))
                JSONText.appendString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                switch value {
                case let .string(s): JSONText.appendString(redactor.redact(s), to: &bytes)
                case let .int(i): bytes.append(contentsOf: String(i).utf8)
                case let .double(d): bytes.append(contentsOf: (d.isFinite ? String(d) : "null").utf8)
                }
            }
            bytes.append(contentsOf: "}\n".utf8)
            sink.write(line: bytes)
            return
        case .text:
            line = "\(time) \(level.rawValue.uppercased()) \(TextFormat.value(redactor.redact(message), bare: true))"
            for (key, value) in fields {
                line += " \(key)="
                switch value {
                case let .string(s): line += TextFormat.value(redactor.redact(s), bare: false)
                case let .int(i): line += String(i)
                case let .double(d): line += String(d)
                }
            }
            line += "\n"
        }
        sink.write(line: Array(line.utf8))
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
