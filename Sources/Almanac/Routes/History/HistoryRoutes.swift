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
    ///   request id the problem's detail carries.
    public static func register(on router: inout Router, history: HistoryService, logger: Logger? = nil) {
        router.get("/v1/bpi/historical/close.json", public: true) { request, _ in
            coinDeskClose(request, history: history, logger: logger)
        }
        router.get("/v1/rates/history", public: true) { request, _ in
            ratesHistory(request, history: history, logger: logger)
        }
    }

    /// Every failure of these routes as a problem: the request id in the detail of a 502/504
    /// or unexpected error, and the same id in its log line.
    static func problem(for error: any Error, _ request: HTTPRequest, logger: Logger?) -> HTTPResponse {
        RatesRoutes.problem(for: error, requestID: request.requestID, logger: logger).response
    }

    // MARK: CoinDesk

    static func coinDeskClose(_ request: HTTPRequest, history: HistoryService, logger: Logger? = nil) -> HTTPResponseFuture {
        let parsed = CoinDeskCloseQuery.parse(
            start: request.query("start"), end: request.query("end"), currency: request.query("currency"),
            for: request.query("for"), index: request.query("index"), yesterday: history.yesterday())
        let query: CoinDeskCloseQuery
        switch parsed {
        case .success(let q): query = q
        case .failure(.malformed(let error)): return .ready(problem(for: error, request, logger: logger))
        case .failure(.refused(let refusal)): return .ready(refused(refusal))
        }
        let variant = "bpi/close?\(query.label)&\(query.days.lowerBound)..\(query.days.upperBound)"
        return answer(request, history: history, codes: [query.code], days: query.days, relative: query.relative,
                      logger: logger) { closes in
            (HistoryRenderer.coinDeskClose(closes, code: query.code, label: query.label), variant)
        }
    }

    /// CoinDesk's refusals: 404, `text/plain`, its exact sentence, never stored.
    static func refused(_ refusal: CoinDeskCloseQuery.Refusal) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/plain; charset=utf-8")
        headers.add("Cache-Control", "no-store")
        return HTTPResponse(status: .notFound, headers: headers, body: Array(refusal.rawValue.utf8))
    }

    // MARK: almanac's own

    static func ratesHistory(_ request: HTTPRequest, history: HistoryService, logger: Logger? = nil) -> HTTPResponseFuture {
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
            return .ready(problem(for: error, request, logger: logger))
        }
        let start = range.days.lowerBound, end = range.days.upperBound
        let variant = "rates/history?base=\(base)&symbols=\(symbols.joined(separator: ","))&\(start)..\(end)"
        let codes = Array(Set(symbols + [base]).subtracting(["BTC"])).sorted() + (symbols.contains("BTC") || base == "BTC" ? ["BTC"] : [])
        return answer(request, history: history, codes: codes, days: range.days, relative: range.clamped,
                      logger: logger) { closes in
            (HistoryRenderer.ratesHistory(closes, base: base, symbols: symbols, start: start, end: end), variant)
        }
    }

    /// `date=` on a rates endpoint: the same answer as without it, from that day's closes.
    /// Codes the client named (base, symbols, code, from, to) must have a close that day (404
    /// otherwise); a listing of every currency shows those that have one.
    static func dated(_ request: HTTPRequest, _ query: RatesQuery, date: String, history: HistoryService,
                      logger: Logger? = nil) -> HTTPResponseFuture {
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
            return .ready(problem(for: error, request, logger: logger))
        }
        let everything: Bool
        if case .rates(_, nil) = query { everything = true } else { everything = false }
        let variant = "date=\(day)&" + query.representationKey
        return answer(request, history: history, codes: everything ? HistoryService.currencies : named, days: day...day,
                      relative: false, logger: logger) { closes throws(RatesInputError) in
            for code in named where code != "BTC" && closes.value(code, day: day) == nil {
                throw RatesInputError(kind: .unknownCurrency, slug: "no-history",
                                      detail: "No close of \(code) is known for \(HistoryDay.text(day)): history starts on 2011-08-18 (USD, EUR, GBP), later for some currencies.")
            }
            guard let table = HistoryRenderer.dayTable(closes, day: day) else {
                throw RatesInputError(kind: .unknownCurrency, slug: "no-history", detail: "No close is known for \(HistoryDay.text(day)).")
            }
            return (try RatesRenderer.render(query, table: table), variant)
        }
    }

    // MARK: the one answer path

    /// Closes from the cache (synchronously when every block is fresh), rendered by `render`
    /// (body and the variant naming this representation for its ETag), with cache headers.
    private static func answer(
        _ request: HTTPRequest, history: HistoryService, codes: [String], days: ClosedRange<Int64>, relative: Bool,
        logger: Logger?, render: @escaping @Sendable (HistoryCloses) throws(RatesInputError) -> ([UInt8], String)
    ) -> HTTPResponseFuture {
        let failure: @Sendable (any Error) -> HTTPResponse = { error in problem(for: error, request, logger: logger) }
        if let closes = history.freshCloses(codes, days: days) {
            // A failure to render is answered on the asynchronous path (`TracedFailure`).
            return TracedFailure.answer({ try respond(request, history: history, closes, relative: relative, render: render) },
                                        writesWarnLine: RatesRoutes.writesWarnLine, failure: failure)
        }
        return .pending {
            do {
                let closes = try await history.closes(codes, days: days)
                return try respond(request, history: history, closes, relative: relative, render: render)
            } catch {
                return failure(error)
            }
        }
    }

    private static func respond(
        _ request: HTTPRequest, history: HistoryService, _ closes: HistoryCloses, relative: Bool,
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
            for: request, body: body, contentType: "application/json; charset=utf-8",
            etag: HTTPCaching.strongETag(validator: served.validator, variant: variant),
            freshness: served.freshness)
    }
}
