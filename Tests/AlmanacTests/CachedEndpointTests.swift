import HTTPClient
import HTTP1
import Web
import Rates
import Testing
import TestSupport
@testable import Almanac

/// `CachedEndpoint`'s one answer path without a cache: parse → fresh? → load → render, and
/// which failures are answered at once and which on the asynchronous path.
@Suite struct CachedEndpointTests {
    struct Unexpected: Error {}

    /// An endpoint over `Int` queries whose fresh value is `fresh` and whose load counts itself
    /// and answers `query * 10`; `render` fails with `renderError` when set.
    static func endpoint(fresh: Int?, loads: Locked<Int>, renderError: (any Error & Sendable)? = nil) -> CachedEndpoint<Int, Int> {
        CachedEndpoint(failures: .rates(logger: nil), fresh: { _ in fresh }, load: { query in
            _ = loads.increment()
            return query * 10
        }) { value, _, _ in
            if let renderError { throw renderError }
            return HTTPResponse(status: .ok, body: Array(String(value).utf8))
        }
    }

    static let request = HTTPRequest(method: "GET", target: "/x", requestID: "req-7")

    static func body(_ future: HTTPResponseFuture) async -> (ready: Bool, response: HTTPResponse) {
        switch future {
        case let .ready(response): return (true, response)
        case let .pending(work): return (false, await work())
        }
    }

    @Test func aFreshValueIsAnsweredAtOnceWithoutLoading() async {
        let loads = Locked(0)
        let (ready, response) = await Self.body(Self.endpoint(fresh: 5, loads: loads).answer(Self.request, 1))
        #expect(ready)
        #expect(response.body == Array("5".utf8))
        #expect(loads.value == 0)
    }

    @Test func aMissIsLoadedOnTheAsynchronousPath() async {
        let loads = Locked(0)
        let (ready, response) = await Self.body(Self.endpoint(fresh: nil, loads: loads).answer(Self.request, 4))
        #expect(!ready)
        #expect(response.body == Array("40".utf8))
        #expect(loads.value == 1)
    }

    @Test func aParseFailureIsItsProblemAtOnce() async {
        let loads = Locked(0)
        let endpoint = Self.endpoint(fresh: 5, loads: loads)
        let (ready, response) = await Self.body(endpoint.answer(Self.request) {
            throw RatesInputError(kind: .malformed, slug: "invalid-amount", detail: "bad")
        })
        #expect(ready)
        #expect(response.status == .badRequest)
        #expect(loads.value == 0)
    }

    /// A failure that logs nothing (a 404) stays synchronous; one that writes a warn line (an
    /// unexpected error) is answered where the request's trace is set.
    @Test func onlyRenderFailuresThatLogLeaveTheSynchronousPath() async {
        let quiet = await Self.body(Self.endpoint(fresh: 5, loads: Locked(0), renderError: RatesInputError(
            kind: .unknownCurrency, slug: "unknown-currency", detail: "none")).answer(Self.request, 1))
        #expect(quiet.ready)
        #expect(quiet.response.status == .notFound)
        let logged = await Self.body(Self.endpoint(fresh: 5, loads: Locked(0), renderError: Unexpected()).answer(Self.request, 1))
        #expect(!logged.ready)
        #expect(logged.response.status == .badGateway)
    }

    /// Every domain error says once what it becomes; the request id is filled in by the mapping.
    @Test func domainErrorsMapOnceWithTheRequestID() {
        let mapping = ProblemMapping.books(logger: nil)
        let upstream = mapping.problem(for: UpstreamError(.timeout, provider: "google-books", detail: "timed out"), requestID: "r1")
        #expect(upstream.status == .gatewayTimeout)
        #expect(upstream.detail.hasSuffix("(request id r1)"))
        #expect(mapping.problem(for: InvalidRequest("say more"), requestID: "r1").status == .badRequest)
        #expect(mapping.problem(for: CancellationError(), requestID: "r1").status == .serviceUnavailable)
        let google = mapping.inGoogleEnvelope.response(for: InvalidRequest("say more"), HTTPRequest(method: "GET", target: "/"))
        #expect(google.headers["Content-Type"] == "application/json; charset=utf-8")
    }
}
