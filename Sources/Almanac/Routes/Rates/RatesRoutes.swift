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
/// Hot path (`CachedEndpoint`): a fresh table is read synchronously (`freshIndexed()`), the
/// body comes from the memo (rendered once per table and query), and the answer is `.ready` —
/// no task hop, no JSON encoding. Misses and stale reads go `.pending` and await the cache.
/// Failures are thrown and told by `ProblemMapping.rates`.
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
            endpoint.answer(request) {
                .rates(base: try RatesInput.code(request.query("base"), parameter: "base", default: "BTC"),
                       symbols: try RatesInput.symbols(request.query("symbols")))
            }
        }
        router.get("/v1/rates/{code}", public: true) { request, params in
            endpoint.answer(request) {
                .rate(code: try RatesInput.code(params["code"], parameter: "currency code"),
                      base: try RatesInput.code(request.query("base"), parameter: "base", default: "BTC"))
            }
        }
        router.get("/v1/convert", public: true) { request, _ in
            endpoint.answer(request) {
                .convert(from: try RatesInput.code(request.query("from"), parameter: "from"),
                         to: try RatesInput.code(request.query("to"), parameter: "to"),
                         amount: try RatesInput.amount(request.query("amount")))
            }
        }
        router.get("/v1/currencies", public: true) { request, _ in
            endpoint.answer(request) { .currencies }
        }
        router.get("/v1/bpi/currentprice.json", public: true) { request, _ in
            endpoint.answer(request) { .bpiCurrentPrice }
        }
        router.get("/v1/bpi/currentprice/{code}.json", public: true) { request, params in
            endpoint.answer(request) {
                .bpiCurrentPriceIn(code: try RatesInput.code(params["code"], parameter: "currency code"))
            }
        }
        router.get("/v1/bpi/supported-currencies.json", public: true) { request, _ in
            endpoint.answer(request) { .bpiSupportedCurrencies }
        }
        router.get("/v1/index", public: true) { request, _ in endpoint.index(request) }
    }
}

/// The rates endpoints' one cached answer path (`CachedEndpoint`): every query is answered from
/// the service's single indexed table, rendered through the memo. A class: every handler
/// captures it, and a hit then retains one reference rather than copying each field.
private final class Endpoint: Sendable {
    let service: RatesService
    let history: HistoryService?
    /// `date=`'s answers, from that day's closes.
    let dated: CachedEndpoint<HistoryRoutes.Query, HistoryCloses>?
    let failures: ProblemMapping
    let rates: CachedEndpoint<RatesQuery, CacheLookup<IndexedRates>>
    let indexReport: CachedEndpoint<Void, CacheLookup<IndexedRates>>

    init(service: RatesService, memo: RenderMemo, history: HistoryService?, logger: Logger?) {
        self.service = service
        self.history = history
        let failures = ProblemMapping.rates(logger: logger)
        self.failures = failures
        dated = history.map { HistoryRoutes.endpoint($0, failures: failures) }
        rates = CachedEndpoint(failures: failures, fresh: { _ in service.freshIndexed() },
                               load: { _ in try await service.indexed() }) { lookup, query, _ in
            let rendered = try memo.rendered(query, from: lookup.value, validator: lookup.validator)
            return HTTPCaching.response(body: rendered.body, contentType: "application/json; charset=utf-8",
                                        etag: rendered.etag, freshness: CacheFreshness(lookup))
        }
        indexReport = CachedEndpoint(failures: failures, fresh: { _ in service.freshIndexed() },
                               load: { _ in try await service.indexed() }) { lookup, _, _ in
            guard let body = lookup.value.indexBody else { throw IndexOff(detail: "The price index is off.") }
            return HTTPCaching.response(body: body, contentType: "application/json; charset=utf-8",
                                        etag: HTTPCaching.strongETag(validator: lookup.validator, variant: "index"),
                                        freshness: CacheFreshness(lookup))
        }
    }

    func answer(_ request: HTTPRequest, _ parse: () throws -> RatesQuery) -> HTTPResponseFuture {
        let query: RatesQuery
        do {
            query = try parse()
        } catch {
            return .ready(failures.response(for: error, request))
        }
        if history != nil, let date = request.query("date"), let history, let dated {
            switch query {
            case .rates, .rate, .convert: return HistoryRoutes.dated(request, query, date: date, history: history,
                                                                     endpoint: dated)
            default: break
            }
        }
        return rates.answer(request, query)
    }

    /// `GET /v1/index`: the report the served table was built from; 404 when the index is off.
    func index(_ request: HTTPRequest) -> HTTPResponseFuture {
        guard service.index != nil else {
            return .ready(failures.response(for: IndexOff(
                detail: "The price index is off (rates.index.providers is empty); rates come from the provider chain alone."), request))
        }
        return indexReport.answer(request, ())
    }
}

/// `GET /v1/index` while the price index is off: 404 `index-off`.
private struct IndexOff: ProblemConvertible {
    let detail: String
    func problem(requestID: String) -> Problem { Problem(status: .notFound, slug: "index-off", detail: detail) }
}
