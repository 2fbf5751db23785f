import Base
import HTTPClient
import Testing
@testable import Rates

/// The history providers' decoders on recorded shapes, and their failures: each names the
/// provider and the field.
@Suite struct HistoryDecodingTests {
    static let jan1: Int64 = 19_723
    func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test func bitstamp() throws {
        let p = BitstampHistoryProvider(baseURL: "https://www.bitstamp.net/")
        #expect(p.url("USD", days: Self.jan1...(Self.jan1 + 999))
                == "https://www.bitstamp.net/api/v2/ohlc/btcusd/?step=86400&limit=1000&start=1704067200&end=1790380800")
        let body = #"{"data":{"pair":"BTC/USD","ohlc":[{"timestamp":"1704067200","open":"42000","high":"43000","low":"41000","close":"42280.23","volume":"1"},{"timestamp":"1704153600","close":"44000.5"},{"timestamp":"1704240000","close":"1"}]}}"#
        let closes = try p.decode(try json(body), currency: "USD", days: Self.jan1...(Self.jan1 + 1))
        #expect(closes == [Self.jan1: 4_228_023_000_000, Self.jan1 + 1: 4_400_050_000_000])   // today's partial candle dropped
        let cases: [(String, String)] = [
            (#"{"code":"400"}"#, "missing field data"),
            (#"{"data":{"pair":"BTC/EUR","ohlc":[]}}"#, "field data.pair is \"BTC/EUR\", not BTC/USD"),
            (#"{"data":{"pair":"BTC/USD"}}"#, "missing field data.ohlc"),
            (#"{"data":{"ohlc":[{"timestamp":"1704067200","close":"0"}]}}"#, "field data.ohlc[0].close is not a positive finite number"),
            (#"{"data":{"ohlc":[{"timestamp":"1704067201","close":"1"}]}}"#, "field data.ohlc[0].timestamp is not the start of a UTC day"),
            (#"{"data":{"ohlc":[{"timestamp":"x","close":"1"}]}}"#, "field data.ohlc[0].timestamp is not a Unix time in seconds"),
            (#"{"data":{"ohlc":[{"close":"1"}]}}"#, "missing field data.ohlc[0].timestamp"),
            // Candles for other dates are a misplaced answer, never these days' closes.
            (#"{"data":{"ohlc":[{"timestamp":"1577836800","close":"1"}]}}"#,
             "field data.ohlc[0].timestamp is 2020-01-01, outside the days asked (2024-01-01…2024-01-01)"),
            (#"{"data":{"ohlc":[{"timestamp":"1704240000","close":"1"}]}}"#,
             "field data.ohlc[0].timestamp is 2024-01-03, outside the days asked (2024-01-01…2024-01-01)"),
        ]
        for (body, detail) in cases {
            #expect(throws: UpstreamError(.malformed, provider: "bitstamp", detail: detail)) {
                try p.decode(try json(body), currency: "USD", days: Self.jan1...Self.jan1)
            }
        }
    }

    @Test func coinbaseExchange() throws {
        let p = CoinbaseExchangeHistoryProvider(baseURL: "https://api.exchange.coinbase.com")
        #expect(p.url("EUR", days: Self.jan1...(Self.jan1 + 299))
                == "https://api.exchange.coinbase.com/products/BTC-EUR/candles?granularity=86400&start=2024-01-01T00:00:00Z&end=2024-10-26T00:00:00Z")
        let closes = try p.decode(try json("[[1704153600,1,2,3,44000.5,9],[1704067200,1,2,3,42280.23,9]]"), days: Self.jan1...(Self.jan1 + 1))
        #expect(closes == [Self.jan1: 4_228_023_000_000, Self.jan1 + 1: 4_400_050_000_000])
        let cases: [(String, String)] = [
            (#"{"message":"NotFound"}"#, "response is an object, not a JSON array of candles"),
            ("[[1704067200,1,2]]", "field [0] has 3 fields, not [time, low, high, open, close, volume]"),
            (#"[[1704067200,1,2,3,"NaN",9]]"#, "field [0][4] (close) is not a positive finite number"),
            ("[[1704067200,1,2,3,-5,9]]", "field [0][4] (close) is not a positive finite number"),
            ("[7]", "field [0] is not an array (got a number)"),
            ("[[1703980800,1,2,3,4,9]]", "field [0][0] (time) is 2023-12-31, outside the days asked (2024-01-01…2024-01-01)"),
        ]
        for (body, detail) in cases {
            #expect(throws: UpstreamError(.malformed, provider: "coinbase-exchange", detail: detail)) {
                try p.decode(try json(body), days: Self.jan1...Self.jan1)
            }
        }
    }

    @Test func frankfurter() throws {
        let p = FrankfurterProvider(baseURL: "https://api.frankfurter.dev")
        #expect(p.url(days: Self.jan1...(Self.jan1 + 1)).hasPrefix("https://api.frankfurter.dev/v1/2024-01-01..2024-01-02?base=USD&symbols=AUD,BGN,"))
        let body = #"{"amount":1.0,"base":"USD","start_date":"2024-01-02","end_date":"2024-01-02","rates":{"2024-01-02":{"JPY":141.9,"CHF":0.85,"XXX":3}}}"#
        let rates = try p.decode(try json(body), days: Self.jan1...(Self.jan1 + 1))
        #expect(rates == ["JPY": [Self.jan1 + 1: 14_190_000_000], "CHF": [Self.jan1 + 1: 85_000_000]])
        let cases: [(String, String)] = [
            (#"{"base":"EUR","rates":{}}"#, "field base is not \"USD\""),
            (#"{"base":"USD"}"#, "missing field rates"),
            (#"{"base":"USD","rates":{"2024-13-01":{}}}"#, "field rates has a key that is not a YYYY-MM-DD date"),
            (#"{"base":"USD","rates":{"2024-01-01":{"JPY":"abc"}}}"#, "field rates.2024-01-01.JPY is not a positive finite number"),
            (#"{"base":"USD","rates":{"2024-01-01":[]}}"#, "field rates.2024-01-01 is not an object (got an array)"),
        ]
        for (body, detail) in cases {
            #expect(throws: UpstreamError(.malformed, provider: "frankfurter", detail: detail)) {
                try p.decode(try json(body), days: Self.jan1...Self.jan1)
            }
        }
    }
}
