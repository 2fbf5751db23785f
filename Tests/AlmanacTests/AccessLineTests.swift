import Base
import Foundation
import HTTP1
import Testing
import TestSupport
@testable import Almanac

/// The access line is built from constant parts straight into the sink's buffer; these check
/// it is byte-identical to the generic `emit` path (and to `String(_:)` spellings).
@Suite struct AccessLineTests {
    /// `{"time":"YYYY-MM-DDTHH:MM:SS.mmmZ"` is the only part that differs between two calls.
    private static func withoutTime(_ line: String) -> String {
        let prefix = #"{"time":"2025-01-31T12:00:00.123Z""#
        #expect(line.utf8.count > prefix.utf8.count && line.hasPrefix(#"{"time":""#))
        return String(line.dropFirst(prefix.count))
    }

    private static let entries: [AccessLogEntry] = {
        var entries = [
            AccessLogEntry(method: "GET", path: "/v1/rates", status: 200, bytes: 5087, durationSeconds: 0.000123,
                           requestID: "01HX-abc", remoteAddress: "127.0.0.1"),
            AccessLogEntry(method: "-", path: "", status: 400, bytes: 0, durationSeconds: 0, requestID: "", remoteAddress: "::1"),
            AccessLogEntry(method: "DELETE", path: "/admin/adm1n-t0ken-very-secret", status: 401, bytes: 10,
                           durationSeconds: 0.0012345, requestID: "r1", remoteAddress: "127.0.0.1:5000"),
            AccessLogEntry(method: "GET", path: "/a\"b\\c\n\u{1}\té?key=x&token=y", status: 404, bytes: -1,
                           durationSeconds: -0.0, requestID: "Bearer abc", remoteAddress: "authorization: x"),
            AccessLogEntry(method: "GET", path: "/x", status: 200, bytes: Int.max, durationSeconds: -0.5,
                           requestID: "id", remoteAddress: "10.0.0.1"),
            AccessLogEntry(method: "GET", path: "/x", status: 200, bytes: Int.min, durationSeconds: .nan,
                           requestID: "id", remoteAddress: "10.0.0.1"),
            AccessLogEntry(method: "GET", path: "/x", status: 200, bytes: 1, durationSeconds: .infinity,
                           requestID: "id", remoteAddress: "10.0.0.1"),
            AccessLogEntry(method: "GET", path: "/x", status: 200, bytes: 1, durationSeconds: 1e13,
                           requestID: "id", remoteAddress: "10.0.0.1"),
            AccessLogEntry(method: "GET", path: "/x", status: 200, bytes: 1, durationSeconds: 999_999_999.9999994,
                           requestID: "id", remoteAddress: "10.0.0.1"),
        ]
        var rng = SplitMix64(seed: 42)
        for _ in 0..<2000 {
            let scale = [1e-6, 1e-4, 1e-3, 0.1, 1, 100, 1e6][Int(rng.next() % 7)]
            entries.append(AccessLogEntry(method: "GET", path: "/v1/rates", status: Int(rng.next() % 600),
                                          bytes: Int(rng.next() % 1_000_000), durationSeconds: Double(rng.next() % 1_000_000) / 1_000_000 * scale,
                                          requestID: "req-\(rng.next() % 1000)", remoteAddress: "127.0.0.1"))
        }
        return entries
    }()

    @Test(arguments: [[String](), ["adm1n-t0ken-very-secret"], ["requ"], ["127.0.0.1"], ["GET /"]])
    func fastLineEqualsGenericLine(secrets: [String]) {
        let fast = MemoryLogSink(), generic = MemoryLogSink()
        let config = Logger.Configuration(level: .info, format: .json, redactor: Redactor(secrets: secrets))
        let fastLog = Logger(configuration: config, sink: fast), genericLog = Logger(configuration: config, sink: generic)
        for entry in Self.entries {
            fastLog.access(entry)
            genericLog.info("request", Logger.accessFields(entry))
        }
        #expect(fast.lines.count == Self.entries.count)
        #expect(fast.lines.map(Self.withoutTime) == generic.lines.map(Self.withoutTime))
    }

    @Test func aLongMethodIsClipped() {
        let long = AccessLogEntry(method: String(repeating: "X", count: 8192), path: "/", status: 405, bytes: 0,
                                  durationSeconds: 0, requestID: "", remoteAddress: "")
        #expect(long.method == String(repeating: "X", count: 32) + "…")
        let exact = String(repeating: "Y", count: 32)
        #expect(AccessLogEntry(method: exact, path: "/", status: 405, bytes: 0, durationSeconds: 0, requestID: "",
                               remoteAddress: "").method == exact)
    }

    @Test func integersAndMillisecondsSpellLikeString() {
        var rng = SplitMix64(seed: 9)
        var ints = [0, 1, 9, 10, 99, 100, 5087, Int.max, Int.min, -1, -10]
        for _ in 0..<10_000 { ints.append(Int(truncatingIfNeeded: rng.next()) >> Int(rng.next() % 64)) }
        for i in ints {
            var bytes: [UInt8] = []
            ASCIIDecimal.append(i, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == String(i))
        }
        var micros: [Double] = [0, -0.0, 1, 10, 100, 1000, 1001, 1010, 1100, 123_456, 999_999_999_999_999, 1e15, 1e16, -5, .nan, .infinity]
        for _ in 0..<50_000 { micros.append(Double(rng.next() % (1 << UInt64(rng.next() % 50 + 1)))) }
        for m in micros {
            var bytes: [UInt8] = []
            DecimalBytes.appendMilliseconds(microseconds: m, to: &bytes)
            let d = m / 1000
            #expect(String(decoding: bytes, as: UTF8.self) == (d.isFinite ? String(d) : "null"), "\(m)")
        }
    }
}
