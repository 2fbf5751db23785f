import Base
import Foundation
import HTTPClient
import Testing
@testable import Rates

/// The five tickers' URLs and decoders on their exact shapes, and their failures naming the
/// provider and the field.
@Suite struct IndexTickerTests {
    func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }
    func d(_ text: String) -> Decimal { DecimalText.parse(text) ?? .nan }

    @Test func coinbaseExchange() throws {
        let p = CoinbaseExchangeTicker(baseURL: "https://api.exchange.coinbase.com/")
        #expect(p.url("EUR") == "https://api.exchange.coinbase.com/products/BTC-EUR/ticker")
        let quote = try p.decode(try json(#"{"ask":"43251","bid":"43249","volume":"1","trade_id":1,"price":"43250.12","size":"0.1","time":"2024-01-05T12:00:00.123456Z"}"#), currency: "EUR")
        #expect(quote == IndexQuote(price: d("43250.12"), time: 1_704_456_000))
        #expect(throws: UpstreamError(.malformed, provider: "coinbase-exchange", detail: "field time is not an ISO 8601 time")) {
            try p.decode(try json(#"{"price":"1","time":"yesterday"}"#), currency: "USD")
        }
        #expect(throws: UpstreamError(.malformed, provider: "coinbase-exchange", detail: "field price is not a decimal number")) {
            try p.decode(try json(#"{"price":"1,000","time":"2024-01-05T12:00:00Z"}"#), currency: "USD")
        }
    }

    @Test func bitstamp() throws {
        let p = BitstampTicker(baseURL: "https://www.bitstamp.net")
        #expect(p.url("GBP") == "https://www.bitstamp.net/api/v2/ticker/btcgbp/")
        let quote = try p.decode(try json(#"{"timestamp":"1704456000","open":"1","high":"1","low":"1","last":"43251.00","volume":"1","vwap":"1","bid":"1","ask":"1"}"#), currency: "GBP")
        #expect(quote == IndexQuote(price: d("43251"), time: 1_704_456_000))
        #expect(throws: UpstreamError(.malformed, provider: "bitstamp", detail: "field timestamp is not a Unix time")) {
            try p.decode(try json(#"{"timestamp":"-1","last":"1"}"#), currency: "USD")
        }
        #expect(throws: UpstreamError(.malformed, provider: "bitstamp", detail: "missing field last")) {
            try p.decode(try json(#"{"timestamp":"1"}"#), currency: "USD")
        }
    }

    @Test func kraken() throws {
        let p = KrakenTicker(baseURL: "https://api.kraken.com")
        #expect(p.url("USD") == "https://api.kraken.com/0/public/Ticker?pair=XBTUSD")
        let body = #"{"error":[],"result":{"XXBTZEUR":{"a":["43251.1","1","1.000"],"b":["1","1","1"],"c":["43250.9","0.001"],"v":["1","1"],"p":["1","1"],"t":[1,1],"l":["1","1"],"h":["1","1"],"o":"1"}}}"#
        #expect(try p.decode(try json(body), currency: "EUR") == IndexQuote(price: d("43250.9"), time: nil))
        #expect(throws: UpstreamError(.malformed, provider: "kraken", detail: "missing field result.XXBTZUSD")) {
            try p.decode(try json(body), currency: "USD")
        }
        #expect(throws: UpstreamError(.other, provider: "kraken", detail: "error EService:Unavailable")) {
            try p.decode(try json(#"{"error":["EService:Unavailable"]}"#), currency: "USD")
        }
        #expect(throws: UpstreamError(.malformed, provider: "kraken", detail: "missing field result.XXBTZUSD.c[0]")) {
            try p.decode(try json(#"{"error":[],"result":{"XXBTZUSD":{"c":[]}}}"#), currency: "USD")
        }
    }

    @Test func gemini() throws {
        let p = GeminiTicker(baseURL: "https://api.gemini.com")
        #expect(p.url("USD") == "https://api.gemini.com/v1/pubticker/btcusd")
        let quote = try p.decode(try json(#"{"bid":"1","ask":"1","volume":{"BTC":"1","USD":"1","timestamp":1704456000000},"last":"43249.5"}"#), currency: "USD")
        #expect(quote == IndexQuote(price: d("43249.5"), time: 1_704_456_000))
        #expect(throws: UpstreamError(.malformed, provider: "gemini", detail: "missing field volume.timestamp")) {
            try p.decode(try json(#"{"volume":{},"last":"1"}"#), currency: "USD")
        }
    }

    @Test func bitfinex() throws {
        let p = BitfinexTicker(baseURL: "https://api-pub.bitfinex.com")
        #expect(p.url("GBP") == "https://api-pub.bitfinex.com/v2/ticker/tBTCGBP")
        let quote = try p.decode(try json("[43249,12.5,43251,10.1,120,0.0028,43250.40,5000.7,43450,43050]"), currency: "GBP")
        #expect(quote == IndexQuote(price: d("43250.4"), time: nil))
        #expect(quote.price.description == "43250.4")
        #expect(throws: UpstreamError(.malformed, provider: "bitfinex", detail: "field [] has 3 elements, expected 10")) {
            try p.decode(try json("[1,2,3]"), currency: "USD")
        }
        #expect(throws: UpstreamError(.malformed, provider: "bitfinex", detail: "field [6] is not a number (got a string)")) {
            try p.decode(try json(#"[1,2,3,4,5,6,"7",8,9,10]"#), currency: "USD")
        }
    }

    @Test func registryAndConfiguration() {
        #expect(IndexConstituentKind.all.map(\.descriptor.id) == ["coinbase-exchange", "bitstamp", "kraken", "gemini", "bitfinex"])
        let config = IndexConfiguration()
        #expect(config.providers == ["coinbase-exchange", "bitstamp", "kraken", "gemini", "bitfinex"])
        // The history exchanges keep one endpoint (one base URL, one budget) for both uses.
        #expect(config.endpoints.descriptors.map(\.id) == ["kraken", "gemini", "bitfinex"])
        var shared = HistoryConfiguration().endpoints
        shared["bitstamp"].baseURL = "http://127.0.0.1:9"
        let made = config.makeConstituents(shared: shared)
        #expect(made.map(\.name) == config.providers)
        #expect(made[1].url("USD") == "http://127.0.0.1:9/api/v2/ticker/btcusd/")
        #expect(config.rule == IndexRule(minSources: 3, maxDeviationPercent: 2, maxAgeSeconds: 120))
    }
}
