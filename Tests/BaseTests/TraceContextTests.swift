import Base
import Testing

/// The W3C Trace Context parsing rules, without sockets: what a valid `traceparent` /
/// `tracestate` is, what is refused (and so starts a new trace), and what almanac sends on.
@Suite struct TraceContextTests {
    static let valid = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"

    @Test func validVersion00() throws {
        let parent = try #require(TraceParent.parse(Self.valid))
        #expect(parent.traceIDHigh == 0x0af7_6519_16cd_43dd)
        #expect(parent.traceIDLow == 0x8448_eb21_1c80_319c)
        #expect(parent.parentID == 0xb7ad_6b71_6920_3331)
        #expect(parent.flags == 1)
    }

    @Test(arguments: [
        "",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0",        // short
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-",      // version 00 with more
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra",
        "00-0AF7651916CD43DD8448EB211C80319C-B7AD6B7169203331-01",       // uppercase
        "00-0af7651916cd43dd8448eb211c80319c-B7ad6b7169203331-01",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0A",
        "0A-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",       // version ff
        "00-00000000000000000000000000000000-b7ad6b7169203331-01",       // zero trace id
        "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",       // zero parent id
        "00_0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",       // wrong separators
        "00-0af7651916cd43dd8448eb211c80319c_b7ad6b7169203331-01",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331_01",
        " 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
        "00-0af7651916cd43dd8448eb211c80319g-b7ad6b7169203331-01",       // not hex
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b716920333-01x",
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-0\u{e9}",
        "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01x",      // future version, no dash after
        "01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331",          // future version, too short
    ])
    func refused(_ value: String) {
        #expect(TraceParent.parse(value) == nil)
    }

    @Test func futureVersionsParsedByVersion00Rules() throws {
        let exact = try #require(TraceParent.parse("cc-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-09"))
        #expect(exact.parentID == 0xb7ad_6b71_6920_3331)
        #expect(exact.propagatedFlags == 1) // only `sampled` is passed on
        let longer = try #require(TraceParent.parse("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00-what-the-future-holds"))
        #expect(longer.flags == 0)
    }

    @Test func childSpanKeepsTheTrace() throws {
        let parent = try #require(TraceParent.parse(Self.valid))
        let trace = TraceContext.begin(from: parent, traceState: "congo=t61rcWkgMzE")
        #expect(trace.traceIDText == "0af7651916cd43dd8448eb211c80319c")
        #expect(trace.spanID != parent.parentID)
        #expect(trace.spanID != 0)
        #expect(trace.parentSpanID == parent.parentID)
        #expect(trace.traceparent == "00-0af7651916cd43dd8448eb211c80319c-\(trace.spanIDText)-01")
        #expect(TraceParent.parse(trace.traceparent)?.parentID == trace.spanID)
        var logged: [UInt8] = []
        trace.appendTraceID(to: &logged)
        trace.appendSpanID(to: &logged)
        #expect(String(decoding: logged, as: UTF8.self) == trace.traceIDText + trace.spanIDText)
    }

    @Test func newTraceWithoutParent() throws {
        let a = TraceContext.begin(from: nil)
        let b = TraceContext.begin(from: nil)
        #expect(a.traceIDText != b.traceIDText)
        #expect(a.spanID != b.spanID)
        #expect(a.parentSpanID == 0 && a.flags == 0 && a.traceState.isEmpty)
        let sent = try #require(TraceParent.parse(a.traceparent))
        #expect(sent.traceIDHigh == a.traceIDHigh && sent.traceIDLow == a.traceIDLow && sent.parentID == a.spanID)
        #expect(a.traceparent.utf8.count == 55)
    }

    @Test func traceStateNormalized() {
        #expect(TraceState.normalize(["rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"]) == "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE")
        // Optional whitespace and empty members go; several headers are one list.
        #expect(TraceState.normalize([" rojo=1 ,\t, congo=2", "tenant-1@sys=a b"]) == "rojo=1,congo=2,tenant-1@sys=a b")
        #expect(TraceState.normalize(["a*/_-9=x"]) == "a*/_-9=x")
        #expect(TraceState.normalize(["0tenant@vendor=x"]) == "0tenant@vendor=x")
        let thirtyTwo = (0..<32).map { "k\($0)=v" }.joined(separator: ",")
        #expect(TraceState.normalize([thirtyTwo]) == thirtyTwo)
    }

    @Test(arguments: [
        [""], [" , "], ["=x"], ["Rojo=1"], ["1rojo=1"], ["rojo"], ["rojo="], ["rojo=a,b"], ["rojo=x=y"],
        ["rojo=1,rojo=2"], ["rojo=1", "rojo=2"], ["rojo=tab\there"], ["rojo=\u{e9}"], ["a@=x"], ["@b=x"],
        ["tenant@0sys=x"], ["tenant@systemnameislong=x"], ["ro jo=1"],
        [String(repeating: "k", count: 257) + "=v"], ["k=" + String(repeating: "v", count: 257)],
        [(0..<33).map { "k\($0)=v" }.joined(separator: ",")],
    ])
    func traceStateRefused(_ values: [String]) {
        #expect(TraceState.normalize(values) == nil)
    }

    @Test func traceStateCutToTheSpecsLength() throws {
        // Over 512 characters: the member over 128 characters goes first, then from the end.
        let large = "big=" + String(repeating: "x", count: 200)
        let small = (0..<20).map { "key\($0)=" + String(repeating: "v", count: 12) }
        let withLarge = try #require(TraceState.normalize([([small[0], large] + small.dropFirst()).joined(separator: ",")]))
        #expect(!withLarge.contains("big="))
        #expect(withLarge.utf8.count <= 512)
        #expect(withLarge.hasPrefix(small[0] + "," + small[1]))
        let many = (0..<32).map { "key\($0)=" + String(repeating: "v", count: 20) }
        let cut = try #require(TraceState.normalize([many.joined(separator: ",")]))
        #expect(cut.utf8.count <= 512)
        #expect(cut == many.prefix(cut.split(separator: ",").count).joined(separator: ","))
    }
}

/// Fresh ids: distinct, never zero, from one counter.
@Suite struct TraceIDSourceTests {
    @Test func idsAreDistinctAndNonZero() {
        var seen = Set<UInt64>()
        for _ in 0..<1000 {
            let trace = TraceIDSource.nextTrace()
            for id in [trace.traceIDHigh, trace.traceIDLow, trace.spanID, TraceIDSource.next()] {
                #expect(id != 0)
                #expect(seen.insert(id).inserted, "id \(id) came twice")
            }
        }
    }
}
