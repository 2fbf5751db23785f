import Base
import Cache
import HTTPClient
import HTTP1
import Web
import Rates
import Upstream

/// The rates endpoints (docs/rates.md "Endpoints") on a `Router`, served from `RatesService`'s single cached
/// table through a `RenderMemo`.
///
/// Hot path: a fresh table is read synchronously (`freshTable()`), the body comes from the
/// memo (rendered once per table and query), and the answer is `.ready` — no task hop, no
/// JSON encoding. Misses and stale reads go `.pending` and await the cache.
///
/// Input rules: codes are three ASCII letters in any case, normalized to upper case; malformed
/// input is a 400 problem naming the parameter, a well-formed code the table lacks a 404;
/// unknown query parameters are ignored (as CoinDesk did), so cache-busting `?_=123` works.
public enum RatesRoutes {
    /// Every pattern this registers, for OpenAPI agreement tests.
    public static let patterns = [
        "/v1/rates", "/v1/rates/{code}", "/v1/convert", "/v1/currencies",
        "/v1/bpi/currentprice.json", "/v1/bpi/currentprice/{code}.json", "/v1/bpi/supported-currencies.json",
        "/v1/index",
    ]

    /// A memo whose ETags are spelled by the shared `HTTPCaching.strongETag`.
    public static func makeMemo(capacity: Int = 1024) -> RenderMemo {
        RenderMemo(capacity: capacity) { validator, key in
            HTTPCaching.strongETag(validator: validator, variant: key)
        }
    }

    /// Registers the rates and CoinDesk-compatible endpoints. With `history`, `date=YYYY-MM-DD`
    /// on `/v1/rates`, `/v1/rates/{code}` and `/v1/convert` answers from that day's closes.
    /// - Parameter logger: receives a warn line per upstream failure a client is told about.
    public static func register(on router: inout Router, service: RatesService, memo: RenderMemo = makeMemo(),
                                history: HistoryService? = nil, logger: Logger? = nil) {
        let endpoint = Endpoint(service: service, memo: memo, history: history, logger: logger)
        router.get("/v1/rates", public: true) { request, _ in
            endpoint.answer(request) { () throws(RatesInputError) -> RatesQuery in
                .rates(base: try RatesInput.code(request.query("base"), parameter: "base", default: "BTC"),
                       symbols: try RatesInput.symbols(request.query("symbols")))
            }
        }
        router.get("/v1/rates/{code}", public: true) { request, params in
            endpoint.answer(request) { () throws(RatesInputError) -> RatesQuery in
                .rate(code: try RatesInput.code(params["code"], parameter: "currency code"),
                      base: try RatesInput.code(request.query("base"), parameter: "base", default: "BTC"))
            }
        }
        router.get("/v1/convert", public: true) { request, _ in
            endpoint.answer(request) { () throws(RatesInputError) -> RatesQuery in
                .convert(from: try RatesInput.code(request.query("from"), parameter: "from"),
                         to: try RatesInput.code(request.query("to"), parameter: "to"),
                         amount: try RatesInput.amount(request.query("amount")))
            }
        }
        router.get("/v1/currencies", public: true) { request, _ in
            endpoint.answer(request) { () throws(RatesInputError) -> RatesQuery in .currencies }
        }
        router.get("/v1/bpi/currentprice.json", public: true) { request, _ in
            endpoint.answer(request) { () throws(RatesInputError) -> RatesQuery in .bpiCurrentPrice }
        }
        router.get("/v1/bpi/currentprice/{code}.json", public: true) { request, params in
            endpoint.answer(request) { () throws(RatesInputError) -> RatesQuery in
                .bpiCurrentPriceIn(code: try RatesInput.code(params["code"], parameter: "currency code"))
            }
        }
        router.get("/v1/bpi/supported-currencies.json", public: true) { request, _ in
            endpoint.answer(request) { () throws(RatesInputError) -> RatesQuery in .bpiSupportedCurrencies }
        }
        router.get("/v1/index", public: true) { request, _ in endpoint.index(request) }
    }

    /// Whether `problem(for:)` writes a warn line for `error`: a currency the provider listed
    /// without a usable rate, or an unexpected error (see `TracedFailure`).
    static func writesWarnLine(for error: any Error) -> Bool {
        switch error {
        case let e as RatesInputError: return e.kind == .unavailableCurrency && e.upstream != nil
        case is ProvidersUnavailable, is UpstreamError, is CancellationError: return false
        default: return true
        }
    }

    /// The problem for a rates failure: client input (400/404), upstream (502/504). Upstream
    /// failures were logged when they happened (`UpstreamFailureLog`) under the request id the
    /// detail names; a currency the provider listed without a usable rate is logged here.
    public static func problem(for error: any Error, requestID: String = "", logger: Logger? = nil) -> Problem {
        switch error {
        case let e as RatesInputError:
            switch e.kind {
            case .malformed: return Problem(status: .badRequest, slug: e.slug, detail: e.detail)
            case .unknownCurrency: return Problem(status: .notFound, slug: e.slug, detail: e.detail)
            case .unavailableCurrency:
                guard let upstream = e.upstream else { return Problem(status: .badGateway, slug: e.slug, detail: e.detail) }
                // The provider answered, but not this currency's rate: its table was stored, so
                // this is logged when a client asks for the currency, not when it was fetched.
                if let logger { UpstreamFailureLog.write(upstream, requestID: requestID, to: logger) }
                return UpstreamProblem.problem(for: upstream, requestID: requestID)
            }
        case let e as ProvidersUnavailable:
            return ProvidersUnavailableProblem.problem(e, requestID: requestID)
        case let e as UpstreamError:
            return UpstreamProblem.problem(for: e, requestID: requestID)
        case is CancellationError:
            return Problem(status: .serviceUnavailable, slug: "cancelled", detail: "The request was cancelled before rates were available.")
        default:
            logger?.warn("rates failed", ["error": .string(String(describing: error))],
                         for: RequestLogContext(requestID: requestID, trace: TraceContext.current))
            return Problem(status: .badGateway, slug: "upstream-failed", title: "Upstream failed",
                           detail: "Rates are unavailable" + (requestID.isEmpty ? "." : " (request id \(requestID))."))
        }
    }
}

/// One service + memo pair shared by every rates handler.
private struct Endpoint: Sendable {
    let service: RatesService
    let memo: RenderMemo
    let history: HistoryService?
    let logger: Logger?

    func answer(_ request: HTTPRequest, _ parse: () throws(RatesInputError) -> RatesQuery) -> HTTPResponseFuture {
        let query: RatesQuery
        do {
            query = try parse()
        } catch {
            return .ready(RatesRoutes.problem(for: error, requestID: request.requestID, logger: logger).response)
        }
        if let history, let date = request.query("date") {
            switch query {
            case .rates, .rate, .convert: return HistoryRoutes.dated(request, query, date: date, history: history, logger: logger)
            default: break
            }
        }
        return lookup(request) { lookup in try respond(request, query, lookup) }
    }

    /// `GET /v1/index`: the report the served table was built from; 404 when the index is off.
    func index(_ request: HTTPRequest) -> HTTPResponseFuture {
        guard service.index != nil else {
            return .ready(Problem(status: .notFound, slug: "index-off",
                                  detail: "The price index is off (rates.index.providers is empty); rates come from the provider chain alone.").response)
        }
        return lookup(request) { lookup in
            guard let body = lookup.value.indexBody else {
                return Problem(status: .notFound, slug: "index-off", detail: "The price index is off.").response
            }
            return HTTPCaching.response(for: request, body: body, contentType: "application/json; charset=utf-8",
                                        etag: HTTPCaching.strongETag(validator: lookup.validator, variant: "index"),
                                        freshness: CacheFreshness(lookup))
        }
    }

    /// Answers from the cached value: at once when it is fresh (a failure to render it on the
    /// asynchronous path, `TracedFailure`), else after the cache's load.
    private func lookup(_ request: HTTPRequest,
                        _ respond: @escaping @Sendable (CacheLookup<IndexedRates>) throws -> HTTPResponse) -> HTTPResponseFuture {
        let failure: @Sendable (any Error) -> HTTPResponse = { [logger] error in
            RatesRoutes.problem(for: error, requestID: request.requestID, logger: logger).response
        }
        if let lookup = service.freshIndexed() {
            return TracedFailure.answer({ try respond(lookup) }, writesWarnLine: RatesRoutes.writesWarnLine, failure: failure)
        }
        return .pending { [self] in
            do {
                return try respond(try await service.indexed())
            } catch {
                return failure(error)
            }
        }
    }

    private func respond(_ request: HTTPRequest, _ query: RatesQuery, _ lookup: CacheLookup<IndexedRates>) throws -> HTTPResponse {
        let rendered = try memo.rendered(query, table: lookup.value.table, validator: lookup.validator,
                                         constituents: lookup.value.disclaimerConstituents)
        return HTTPCaching.response(for: request, body: rendered.body, contentType: "application/json; charset=utf-8",
                                    etag: rendered.etag, freshness: CacheFreshness(lookup))
    }
}
