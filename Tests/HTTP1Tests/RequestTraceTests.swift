import Base
import Testing
@testable import HTTP1

/// How a request's headers become its trace: one valid `traceparent` is the caller's, two are
/// none; `tracestate` is read only with a valid `traceparent`.
@Suite struct RequestTraceTests {
    static let parent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

    @Test func oneValidTraceparentIsTheCallers() throws {
        let headers: HTTPHeaders = ["TraceParent": Self.parent, "tracestate": "rojo=1"]
        let incoming = try #require(RequestTrace.incoming(headers))
        #expect(incoming.parentID == 0xb7ad_6b71_6920_3331)
        let trace = RequestTrace.begin(incoming, headers: headers)
        #expect(trace.traceIDText == "0af7651916cd43dd8448eb211c80319c")
        #expect(trace.parentSpanID == incoming.parentID && trace.spanID != incoming.parentID)
        #expect(trace.traceState == "rojo=1")
    }

    @Test func twoTraceparentsAreNone() {
        let headers = HTTPHeaders([("traceparent", Self.parent), ("traceparent", Self.parent)])
        #expect(RequestTrace.incoming(headers) == nil)
    }

    @Test func tracestateWithoutAValidTraceparentIsDropped() {
        let headers: HTTPHeaders = ["traceparent": Self.parent.uppercased(), "tracestate": "rojo=1"]
        let incoming = RequestTrace.incoming(headers)
        #expect(incoming == nil)
        let trace = RequestTrace.begin(incoming, headers: headers)
        #expect(trace.traceState.isEmpty && trace.parentSpanID == 0 && trace.flags == 0)
        #expect(RequestTrace.incoming(HTTPHeaders()) == nil)
    }

    @Test func severalTracestateFieldsAreOneList() throws {
        let headers = HTTPHeaders([("traceparent", Self.parent), ("tracestate", "rojo=1"), ("Tracestate", "congo=2")])
        let incoming: TraceParent = try #require(RequestTrace.incoming(headers))
        let trace = RequestTrace.begin(incoming, headers: headers)
        #expect(trace.traceState == "rojo=1,congo=2")
    }
}
