import Base

/// Turns the query parameters of the history endpoints into days, before any upstream is
/// touched. Pure: "yesterday" is an argument.
public enum HistoryInput {
    /// A day parameter: absent → nil; not a real `YYYY-MM-DD` date → 400 naming `parameter`.
    public static func day(_ value: String?, parameter: String) throws(RatesInputError) -> Int64? {
        guard let value else { return nil }
        guard let day = HistoryDay.parse(value) else {
            throw RatesInputError(kind: .malformed, slug: "invalid-date",
                                  detail: "Invalid \(parameter) \"\(EchoedText.clipped(value))\": a date is YYYY-MM-DD, such as 2024-01-31.")
        }
        return day
    }

    static func missing(_ parameter: String, other: String) -> RatesInputError {
        RatesInputError(kind: .malformed, slug: "missing-parameter",
                        detail: "The query parameter \(parameter) is required with \(other), e.g. start=2024-01-01&end=2024-01-31.")
    }

    /// `/v1/rates/history`'s `start` and `end`: both required, start ≤ end, start before today;
    /// an end after yesterday is cut to yesterday (`clamped` is then true).
    public static func range(start: String?, end: String?, yesterday: Int64) throws(RatesInputError)
        -> (days: ClosedRange<Int64>, clamped: Bool) {
        let first = try day(start, parameter: "start"), last = try day(end, parameter: "end")
        guard let first else { throw missing("start", other: "end") }
        guard let last else { throw missing("end", other: "start") }
        guard first <= last else {
            throw RatesInputError(kind: .malformed, slug: "invalid-date-range", detail: "end \(HistoryDay.text(last)) is before start \(HistoryDay.text(first)).")
        }
        guard first <= yesterday else {
            throw RatesInputError(kind: .malformed, slug: "invalid-date-range",
                                  detail: "start \(HistoryDay.text(first)) has no close yet: the last complete UTC day is \(HistoryDay.text(yesterday)).")
        }
        return (first...min(last, yesterday), last > yesterday)
    }

    /// `date=` on `/v1/rates` and `/v1/convert`: a complete UTC day (before today).
    public static func date(_ value: String, yesterday: Int64) throws(RatesInputError) -> Int64 {
        guard let day = try day(value, parameter: "date") else { return yesterday }
        guard day <= yesterday else {
            throw RatesInputError(kind: .malformed, slug: "invalid-date",
                                  detail: "date \(HistoryDay.text(day)) has no close yet: the last complete UTC day is \(HistoryDay.text(yesterday)).")
        }
        return day
    }

    /// A code with history (`XBT` is BTC), or the 404 naming it.
    public static func historyCode(_ code: String) throws(RatesInputError) -> String {
        let normalized = code == "XBT" ? "BTC" : code
        guard HistoryService.currencies.contains(normalized) else {
            throw RatesInputError(kind: .unknownCurrency, slug: "unknown-currency",
                                  detail: "No history for \(code): history covers \(HistoryService.currencies.joined(separator: ", ")).")
        }
        return normalized
    }
}

/// CoinDesk's `historical/close.json` parameters, with CoinDesk's defaults and errors.
public struct CoinDeskCloseQuery: Sendable, Equatable {
    /// The code whose closes are served (`BTC` for `XBT`).
    public var code: String
    /// The code as asked (upper case), for the disclaimer.
    public var label: String
    public var days: ClosedRange<Int64>
    /// True when the range depends on the date (defaults, `for=yesterday`, a clamped end): the
    /// answer changes at the next midnight, so clients must not cache it past that.
    public var relative: Bool

    /// CoinDesk's plain-text 404 sentences, exactly.
    public enum Refusal: String, Error, Sendable {
        case currency = "Sorry, that currency was not found"
        case beforeFirstDay = "Sorry, the CoinDesk BPI only covers data from 2010-07-17 onwards."
        case endBeforeStart = "Sorry, but your specified end date is before your start date."
    }

    public enum Failure: Error, Sendable, Equatable {
        /// 400 problem (malformed input, naming the parameter).
        case malformed(RatesInputError)
        /// 404 `text/plain` with CoinDesk's sentence.
        case refused(Refusal)
    }

    /// Parses the query. Malformed dates and half ranges are 400s naming the parameter; then the
    /// currency (default USD), the first-day rule and the order of the dates are checked as
    /// CoinDesk did. No dates → the 31 days ending yesterday; `for=yesterday` → yesterday alone;
    /// an end after yesterday is cut to yesterday (so a start in the future is "end before start").
    /// The indexes CoinDesk documented (`index=[USD/CNY]`), lower-cased.
    static let coinDeskIndexes: Set<String> = ["usd", "cny"]

    public static func parse(start: String?, end: String?, currency: String?, for forValue: String?, index: String?,
                             yesterday: Int64) -> Result<CoinDeskCloseQuery, Failure> {
        let first: Int64?, last: Int64?
        do throws(RatesInputError) {
            first = try HistoryInput.day(start, parameter: "start")
            last = try HistoryInput.day(end, parameter: "end")
            if first != nil, last == nil { throw HistoryInput.missing("end", other: "start") }
            if last != nil, first == nil { throw HistoryInput.missing("start", other: "end") }
            if let forValue, ASCIICase.lowercased(forValue.utf8) != "yesterday" {
                throw RatesInputError(kind: .malformed, slug: "invalid-parameter",
                                      detail: "Invalid for \"\(EchoedText.clipped(forValue))\": the only value is for=yesterday.")
            }
            if let index, !coinDeskIndexes.contains(ASCIICase.lowercased(index.utf8)) {
                throw RatesInputError(kind: .malformed, slug: "invalid-parameter",
                                      detail: "Invalid index \"\(EchoedText.clipped(index))\": the indexes are USD and CNY.")
            }
        } catch {
            return .failure(.malformed(error))
        }
        // CoinDesk documented `index=[USD/CNY]`: the index names the currency when `currency` does not.
        let currency = currency ?? index
        let label = currency.flatMap { CurrencyCode.normalize($0) } ?? (currency == nil ? "USD" : "")
        guard !label.isEmpty, let code = try? HistoryInput.historyCode(label) else { return .failure(.refused(.currency)) }
        if forValue != nil {
            return .success(CoinDeskCloseQuery(code: code, label: label, days: yesterday...yesterday, relative: true))
        }
        guard let first, let last else {
            return .success(CoinDeskCloseQuery(code: code, label: label, days: (yesterday - 30)...yesterday, relative: true))
        }
        guard first >= HistoryDay.coinDeskFirst else { return .failure(.refused(.beforeFirstDay)) }
        let cut = min(last, yesterday)
        guard first <= cut else { return .failure(.refused(.endBeforeStart)) }
        return .success(CoinDeskCloseQuery(code: code, label: label, days: first...cut, relative: last > yesterday))
    }
}
