import Base
import Cache
import Foundation
import HTTP1
import Testing
@testable import Almanac

/// Every warn line written on behalf of a client's request carries that request's
/// `request_id`, `trace_id` and `span_id` (as the server sets them for the task answering it);
/// lines tied to no request carry none.
@Suite struct RequestWarnLineTests {
    struct Unexpected: Error {}

    static let trace = TraceContext(traceIDHigh: 0x4bf9_2f35_77b3_4da6, traceIDLow: 0xa3ce_929d_0e0e_4736,
                                    spanID: 0x00f0_67aa_0ba9_02b7, parentSpanID: 0x1111, flags: 1, traceState: "")

    /// The JSON object of each line `write` logs while working for request `traced` of `trace`.
    static func lines(_ write: (Logger) -> Void) -> [[String: Any]] {
        let sink = MemoryLogSink()
        let logger = Logger(configuration: .init(level: .warn), sink: sink)
        RequestContext.$requestID.withValue("traced") {
            TraceContext.$current.withValue(trace) { write(logger) }
        }
        return sink.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func expectTraced(_ lines: [[String: Any]], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let line = lines.first { $0["msg"] as? String == message }
        #expect(line?["level"] as? String == "warn", "\(lines)", sourceLocation: sourceLocation)
        #expect(line?["request_id"] as? String == "traced", sourceLocation: sourceLocation)
        #expect(line?["trace_id"] as? String == "4bf92f3577b34da6a3ce929d0e0e4736", sourceLocation: sourceLocation)
        #expect(line?["span_id"] as? String == "00f067aa0ba902b7", sourceLocation: sourceLocation)
    }

    @Test func ratesAndBookFailuresCarryTheTrace() {
        let lines = Self.lines { logger in
            _ = RatesRoutes.problem(for: Unexpected(), requestID: "traced", logger: logger)
            _ = BooksProblems.problem(for: Unexpected(), requestID: "traced", logger: logger)
        }
        Self.expectTraced(lines, "rates failed")
        Self.expectTraced(lines, "book lookup failed")
    }

    @Test func staleServingAndRefusedSharedValuesCarryTheRequestThatMetThem() {
        let lines = Self.lines { logger in
            StaleServingLog(logger: logger).refreshFailed(RefreshFailure(namespace: "rates", key: "BTC", error: Unexpected()))
            SharedRejectionLog(logger: logger).rejected(SharedRejectionEvent(namespace: "rates", key: "BTC", reason: .envelope))
        }
        Self.expectTraced(lines, "serving stale answers: refresh failed")
        Self.expectTraced(lines, "shared cache: value in Redis refused, treated as absent and deleted")
    }

    @Test func outsideARequestTheFieldsAreEmpty() {
        let sink = MemoryLogSink()
        let logger = Logger(configuration: .init(level: .warn), sink: sink)
        logger.warn("rates failed", ["error": "x"], for: .current)
        #expect(sink.lines.first?.hasSuffix(#""error":"x","request_id":"","trace_id":"","span_id":""}"#) == true, "\(sink.lines)")
    }
}
