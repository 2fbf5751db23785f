import Base
import HTTPClient

/// An exchange's daily BTC candles (bitstamp, coinbase-exchange). One call is one upstream
/// request for at most `plan.size` days; implementations throw `UpstreamError` only, with
/// malformed answers as `.malformed` naming the provider and the field.
public protocol HistoryExchangeProvider: Sendable {
    /// `bitstamp`, `coinbase-exchange`: as in `rates.history.providers` and in `source`.
    var name: String { get }
    /// Days per request and the first day the exchange holds.
    var plan: HistoryBlockPlan { get }
    /// Quoted currencies the exchange trades BTC in.
    var currencies: [String] { get }
    /// Closes of BTC in `currency` for `days` (day → `HistoryFixed` value). Days the exchange
    /// has no candle for are absent; candles outside `days` are dropped.
    func closes(_ currency: String, days: ClosedRange<Int64>, client: any HTTPClient) async throws -> [Int64: Int64]
}

/// Shared decoding of history answers: candle times and decimal values, with errors that
/// name the provider and the field.
extension UpstreamDecoding {
    /// A positive decimal (number or string) as a `HistoryFixed` value.
    func fixed(_ value: JSONValue?, _ path: String) throws(UpstreamError) -> Int64 {
        guard let value else { throw missing(path) }
        switch value {
        case let .number(text), let .string(text):
            guard let fixed = HistoryFixed.parse(text) else { throw invalid(path, "is not a positive finite number") }
            return fixed
        default:
            throw wrongType(path, expected: "a number", got: value)
        }
    }

    /// A candle's day when it is one of `days`; nil for the day right after them (an exchange
    /// may add the partial candle of the day after `end`, which is dropped). Any other day is
    /// a misplaced answer: a failure, so that an answer for other dates is never stored as
    /// these days' closes.
    func candleDay(_ value: JSONValue?, _ path: String, asked days: ClosedRange<Int64>) throws(UpstreamError) -> Int64? {
        let day = try candleDay(value, path)
        if days.contains(day) { return day }
        guard day == days.upperBound + 1 else {
            throw invalid(path, "is \(HistoryDay.text(day)), outside the days asked (\(HistoryDay.text(days.lowerBound))…\(HistoryDay.text(days.upperBound)))")
        }
        return nil
    }

    /// A candle's start (Unix seconds, number or string) as a day; it must be 00:00 UTC.
    func candleDay(_ value: JSONValue?, _ path: String) throws(UpstreamError) -> Int64 {
        guard let value else { throw missing(path) }
        let text: String
        switch value {
        case let .number(t), let .string(t): text = t
        default: throw wrongType(path, expected: "a Unix time", got: value)
        }
        guard !text.isEmpty, text.utf8.count <= 12, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let seconds = Int64(text) else { throw invalid(path, "is not a Unix time in seconds") }
        guard seconds % 86_400 == 0 else { throw invalid(path, "is not the start of a UTC day") }
        return seconds / 86_400
    }
}
