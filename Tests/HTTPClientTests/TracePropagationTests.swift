import Base
import Testing
@testable import HTTPClient

/// The trace headers every upstream request gets: the task's trace with almanac's span as the
/// parent, the caller's tracestate, and never a provider's own copy beside them.
@Suite(.timeLimit(.minutes(5))) struct TracePropagationTests {
    static let trace = TraceContext(traceIDHigh: 0x0af7_6519_16cd_43dd, traceIDLow: 0x8448_eb21_1c80_319c, spanID: 0x1122_3344_5566_7788,
                                    parentSpanID: 0xb7ad_6b71_6920_3331, flags: 1, traceState: "rojo=1,congo=2")

    @Test func theCurrentTraceIsSentWithAlmanacsSpan() {
        let headers = TraceContext.$current.withValue(Self.trace) {
            TracePropagation.headers([UpstreamHeader("Accept", "application/json"), UpstreamHeader("TraceParent", "00-stale")])
        }
        #expect(headers == [
            UpstreamHeader("Accept", "application/json"),
            UpstreamHeader("traceparent", "00-0af7651916cd43dd8448eb211c80319c-1122334455667788-01"),
            UpstreamHeader("tracestate", "rojo=1,congo=2"),
        ])
    }

    @Test func withoutARequestATraceIsStarted() throws {
        let headers = TracePropagation.headers([])
        #expect(headers.count == 1)
        let sent = try #require(headers.first { $0.name == "traceparent" })
        let parsed = try #require(TraceParent.parse(sent.value))
        #expect(parsed.flags == 0)
    }
}
