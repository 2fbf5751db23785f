import Cache
import Foundation
import HTTPClient
import HTTPClientTestSupport
import HTTP1
import Web
import Rates
import Testing
@testable import Almanac

/// History's failures go through the one problem mapping: an upstream failure's detail names
/// the request id, and an unexpected error is logged with the request's id and answered 502.
@Suite struct HistoryRouteFailureTests {
    struct Unexpected: Error {}

    /// A history service whose every upstream request throws `error`.
    static func history(throwing error: any Error & Sendable) -> HistoryService {
        HistoryService(configuration: HistoryConfiguration(), client: StubHTTPClient { _ in throw error },
                       cache: CacheStore(limits: CacheLimits(), randomUnit: { 0 }), now: { 1_700_000_000 })
    }

    /// The history routes on a router, logging to `sink`.
    static func router(throwing error: any Error & Sendable, sink: MemoryLogSink) -> Router {
        var router = Router(problemTypes: .almanac)
        HistoryRoutes.register(on: &router, history: history(throwing: error),
                               logger: Logger(configuration: .init(level: .warn), sink: sink))
        return router
    }

    static func get(_ router: Router, _ target: String, requestID: String) async -> HTTPResponse {
        await awaited(pipelined(router)(HTTPRequest(method: "GET", target: target, requestID: requestID)))
    }

    static func detail(_ response: HTTPResponse) -> String {
        let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return object?["detail"] as? String ?? ""
    }

    @Test(arguments: ["/v1/rates/history?start=2023-11-01&end=2023-11-03", "/v1/bpi/historical/close.json"])
    func upstreamFailureDetailCarriesTheRequestID(target: String) async {
        let sink = MemoryLogSink()
        let router = Self.router(throwing: UpstreamError(.other, provider: "bitstamp", detail: "scripted failure"), sink: sink)
        let response = await Self.get(router, target, requestID: "hist-502")
        #expect(response.status == .badGateway)
        #expect(Self.detail(response).hasSuffix("(request id hist-502)"), "\(Self.detail(response))")
    }

    /// The providers turn every failure into an `UpstreamError`, so the load itself fails here
    /// the way nothing upstream does.
    @Test func unexpectedErrorIsLoggedWithTheRequestID() async {
        let sink = MemoryLogSink()
        let history = Self.history(throwing: Unexpected())
        let endpoint = HistoryRoutes.endpoint(history, failures: .rates(logger: Logger(configuration: .init(level: .warn), sink: sink)),
                                              load: { _ in throw Unexpected() })
        let request = HTTPRequest(method: "GET", target: "/v1/rates/history?start=2023-11-01&end=2023-11-03", requestID: "hist-odd")
        let response: HTTPResponse
        switch HistoryRoutes.ratesHistory(request, history: history, endpoint: endpoint) {
        case let .ready(ready): response = ready
        case let .pending(work): response = await work()
        }
        #expect(response.status == .badGateway)
        #expect(Self.detail(response) == "Rates are unavailable (request id hist-odd).")
        let lines = sink.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let logged = lines.filter { $0["msg"] as? String == "rates failed" }
        #expect(logged.count == 1, "\(sink.lines)")
        #expect(logged.first?["request_id"] as? String == "hist-odd")
        #expect((logged.first?["error"] as? String)?.contains("Unexpected") == true)
    }
}
