import Cache
import HTTP1
import Web
import Rates

/// The history endpoints: CoinDesk's `GET /v1/bpi/historical/close.json` and almanac's own
/// `GET /v1/rates/history`, plus `date=` on `/v1/rates`, `/v1/rates/{code}` and `/v1/convert`
/// (registered by `RatesRoutes`, answered here).
///
/// Every answer is assembled from `HistoryService`'s cached blocks: a warm range is answered
/// `.ready` on the connection's queue (no task hop), a cold one awaits its blocks. Cache headers
/// are the ones every cached answer carries (`HTTPCaching`); an answer whose range moves at
/// midnight (defaults, `for=yesterday`, a clamped end) is fresh for clients until midnight only.
public enum HistoryRoutes {
    public static let patterns = ["/v1/bpi/historical/close.json", "/v1/rates/history"]

    /// - Parameter logger: where upstream failures and unexpected errors are logged, with the
    ///   request id the problem's detail carries (`ProblemMapping`).
    public static func register(on router: inout Router, history: HistoryService, logger: Logger? = nil) {
        let endpoint = Self.endpoint(history, failures: .rates(logger: logger))
        router.get("/v1/bpi/historical/close.json", public: true) { request, _ in
            coinDeskClose(request, history: history, endpoint: endpoint)
        }
        router.get("/v1/rates/history", public: true) { request, _ in
            ratesHistory(request, history: history, endpoint: endpoint)
        }
    }

    /// What one history answer needs: the closes of `codes` over `days`, and how to render them
    /// (body and the variant naming this representation for its ETag). `relative`: the range
    /// moves at midnight, so the answer is fresh for clients until midnight only.
    struct Query: Sendable {
        var codes: [String]
        var days: ClosedRange<Int64>
        var relative: Bool
        var render: @Sendable (HistoryCloses) throws(RatesInputError) -> ([UInt8], String)
    }

    /// The one answer path of every history answer: closes from the cache (synchronously when
    /// every block is fresh), rendered with the cache headers, failures as `failures` says.
    /// - Parameter load: the closes when they are not fresh; `history.closes` unless a test
    ///   makes the load fail in a way the providers never do.
    static func endpoint(_ history: HistoryService, failures: ProblemMapping,
                         load: (@Sendable (Query) async throws -> HistoryCloses)? = nil) -> CachedEndpoint<Query, HistoryCloses> {
        CachedEndpoint(failures: failures, fresh: { history.freshCloses($0.codes, days: $0.days) },
                       load: load ?? { try await history.closes($0.codes, days: $0.days) }) { closes, query, _ in
            try respond(history: history, closes, relative: query.relative, render: query.render)
        }
    }

    // MARK: CoinDesk

    static func coinDeskClose(_ request: HTTPRequest, history: HistoryService,
                              endpoint: CachedEndpoint<Query, HistoryCloses>) -> HTTPResponseFuture {
        let parsed = CoinDeskCloseQuery.parse(
            start: request.query("start"), end: request.query("end"), currency: request.query("currency"),
            for: request.query("for"), index: request.query("index"), yesterday: history.yesterday())
        let query: CoinDeskCloseQuery
        switch parsed {
        case .success(let q): query = q
        case .failure(.malformed(let error)): return .ready(endpoint.failures.response(for: error, request))
        case .failure(.refused(let refusal)): return .ready(refused(refusal))
        }
        let variant = "bpi/close?\(query.label)&\(query.days.lowerBound)..\(query.days.upperBound)"
        return endpoint.answer(request, Query(codes: [query.code], days: query.days, relative: query.relative) { closes in
            (HistoryRenderer.coinDeskClose(closes, code: query.code, label: query.label), variant)
        })
    }

    /// CoinDesk's refusals: 404, `text/plain`, its exact sentence, never stored.
    static func refused(_ refusal: CoinDeskCloseQuery.Refusal) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/plain; charset=utf-8")
        headers.add("Cache-Control", "no-store")
        return HTTPResponse(status: .notFound, headers: headers, body: Array(refusal.rawValue.utf8))
    }

    // MARK: almanac's own

    static func ratesHistory(_ request: HTTPRequest, history: HistoryService,
                             endpoint: CachedEndpoint<Query, HistoryCloses>) -> HTTPResponseFuture {
        let base: String, symbols: [String], range: (days: ClosedRange<Int64>, clamped: Bool)
        do throws(RatesInputError) {
            range = try HistoryInput.range(start: request.query("start"), end: request.query("end"), yesterday: history.yesterday())
            base = try HistoryInput.historyCode(try RatesInput.code(request.query("base"), parameter: "base", default: "BTC"))
            let asked = try RatesInput.symbols(request.query("symbols"))
            symbols = try asked.map { list throws(RatesInputError) in
                var codes: [String] = []
                for code in list { codes.append(try HistoryInput.historyCode(code)) }
                return codes
            } ?? HistoryService.currencies.filter { $0 != base }
        } catch {
            return .ready(endpoint.failures.response(for: error, request))
        }
        let start = range.days.lowerBound, end = range.days.upperBound
        let variant = "rates/history?base=\(base)&symbols=\(symbols.joined(separator: ","))&\(start)..\(end)"
        let codes = Array(Set(symbols + [base]).subtracting(["BTC"])).sorted() + (symbols.contains("BTC") || base == "BTC" ? ["BTC"] : [])
        return endpoint.answer(request, Query(codes: codes, days: range.days, relative: range.clamped) { closes in
            (HistoryRenderer.ratesHistory(closes, base: base, symbols: symbols, start: start, end: end), variant)
        })
    }

    /// `date=` on a rates endpoint: the same answer as without it, from that day's closes.
    /// Codes the client named (base, symbols, code, from, to) must have a close that day (404
    /// otherwise); a listing of every currency shows those that have one.
    static func dated(_ request: HTTPRequest, _ query: RatesQuery, date: String, history: HistoryService,
                      endpoint: CachedEndpoint<Query, HistoryCloses>) -> HTTPResponseFuture {
        let day: Int64, named: [String]
        do throws(RatesInputError) {
            day = try HistoryInput.date(date, yesterday: history.yesterday())
            let asked: [String]
            switch query {
            case let .rates(base, symbols): asked = (symbols ?? []) + [base]
            case let .rate(code, base): asked = [code, base]
            case let .convert(from, to, _): asked = [from, to]
            default: asked = []
            }
            var known: [String] = []
            for code in asked where !known.contains(code) { known.append(try HistoryInput.historyCode(code)) }
            named = known
        } catch {
            return .ready(endpoint.failures.response(for: error, request))
        }
        let everything: Bool
        if case .rates(_, nil) = query { everything = true } else { everything = false }
        let variant = "date=\(day)&" + query.representationKey
        return endpoint.answer(request, Query(codes: everything ? HistoryService.currencies : named, days: day...day,
                                              relative: false) { closes throws(RatesInputError) in
            for code in named where code != "BTC" && closes.value(code, day: day) == nil {
                throw RatesInputError(kind: .unknownCurrency, slug: "no-history",
                                      detail: "No close of \(code) is known for \(HistoryDay.text(day)): history starts on 2011-08-18 (USD, EUR, GBP), later for some currencies.")
            }
            guard let table = HistoryRenderer.dayTable(closes, day: day) else {
                throw RatesInputError(kind: .unknownCurrency, slug: "no-history", detail: "No close is known for \(HistoryDay.text(day)).")
            }
            return (try RatesRenderer.render(query, table: table), variant)
        })
    }

    // MARK: rendering

    /// Closes as the response: `render`'s body with the cache headers, fresh for clients until
    /// midnight only when the range is `relative`.
    private static func respond(
        history: HistoryService, _ closes: HistoryCloses, relative: Bool,
        render: (HistoryCloses) throws(RatesInputError) -> ([UInt8], String)
    ) throws(RatesInputError) -> HTTPResponse {
        var served = closes
        if relative {
            let now = history.nowSeconds()
            let midnight = HistoryDay.startSeconds(HistoryDay.containing(unixSeconds: now) + 1)
            served = closes.cappingFreshness(at: Double(midnight - now))
        }
        let (body, variant) = try render(served)
        return HTTPCaching.response(
            body: body, contentType: "application/json; charset=utf-8",
            etag: HTTPCaching.strongETag(validator: served.validator, variant: variant),
            freshness: served.freshness)
    }
}
