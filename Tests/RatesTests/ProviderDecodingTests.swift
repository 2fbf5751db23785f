import Foundation
import HTTPClient
import HTTPClientTestSupport
import Testing
@testable import Rates

/// Provider decoding from recorded bodies, through `fetch` with a stub client.
@Suite struct ProviderDecodingTests {
    let fixed: WallClock = { Fixtures.fetchTime }

    func fetch(_ provider: any RatesProvider, body: String, status: Int = 200) async throws -> RateTable {
        let client = StubHTTPClient { _ in StubHTTPClient.json(body, status: status) }
        return try await provider.fetch(client: client)
    }

    func failure(_ provider: any RatesProvider, body: String, status: Int = 200) async -> UpstreamError? {
        do {
            _ = try await fetch(provider, body: body, status: status)
            return nil
        } catch {
            return error as? UpstreamError
        }
    }

    // MARK: coinbase

    @Test func coinbaseRequestShape() async throws {
        let client = StubHTTPClient { _ in StubHTTPClient.json(Fixtures.coinbase) }
        _ = try await CoinbaseProvider(baseURL: "http://127.0.0.1:9/", now: fixed).fetch(client: client)
        let request = try #require(client.requests.first)
        #expect(request.url == "http://127.0.0.1:9/v2/exchange-rates?currency=BTC")
        #expect(request.provider == "coinbase")
        #expect(request.headers.contains(UpstreamHeader("Accept", "application/json")))
    }

    @Test func coinbaseDecodesDecimalStringsExactly() async throws {
        let table = try await fetch(CoinbaseProvider(now: fixed), body: Fixtures.coinbase)
        #expect(table.source == "coinbase")
        #expect(table.updated == Fixtures.fetchTime)
        #expect(table.rate("USD") == Decimal("91234.56"))
        #expect(table.rate("ETH")?.description == "29.81234567890123456789")
        #expect(table.rate("JPY") == Decimal("13700000"))
        #expect(table.rate("BTC") == 1)
        // four-letter / digit codes and zero rates are dropped; lower-case codes upper-cased
        #expect(table.rate("USDC") == nil)
        #expect(table.rate("1INCH") == nil)
        #expect(table.rate("ZWL") == nil)
        #expect(table.codes == ["BTC", "ETH", "EUR", "GBP", "JPY", "USD"])
    }

    @Test func coinbaseErrorsNameTheField() async {
        let p = CoinbaseProvider(now: fixed)
        #expect(await failure(p, body: #"{"data":{"currency":"BTC"}}"#)?.description == "coinbase: malformed: missing field data.rates")
        #expect(await failure(p, body: #"{"errors":[]}"#)?.detail == "missing field data")
        #expect(await failure(p, body: #"{"data":{"rates":{"USD":"9x"}}}"#)?.detail == "field data.rates.USD is not a decimal number")
        #expect(await failure(p, body: #"{"data":{"rates":{"USD":null}}}"#)?.detail == "field data.rates.USD is not a decimal string (got null)")
        #expect(await failure(p, body: #"{"data":{"rates":[]}}"#)?.detail == "field data.rates is not an object (got an array)")
        #expect(await failure(p, body: #"{"data":{"currency":"ETH","rates":{"USD":"1"}}}"#)?.detail == "field data.currency is \"ETH\", expected \"BTC\"")
        #expect(await failure(p, body: #"{"data":{"rates":{"USDC":"1"}}}"#)?.detail == "field data.rates holds no usable rates")
        #expect(await failure(p, body: "[1]")?.detail == "response is an array, not a JSON object")
    }

    @Test func coinbaseAcceptsNumbersAsWellAsStrings() async throws {
        let table = try await fetch(CoinbaseProvider(now: fixed), body: #"{"data":{"rates":{"USD":91234.56}}}"#)
        #expect(table.rate("USD") == Decimal("91234.56"))
    }

    // MARK: coingecko

    @Test func coingeckoRequestShape() async throws {
        let client = StubHTTPClient { _ in StubHTTPClient.json(Fixtures.coingecko) }
        _ = try await CoinGeckoProvider(baseURL: "http://127.0.0.1:9", now: fixed).fetch(client: client)
        let url = try #require(client.requests.first?.url)
        #expect(url.hasPrefix("http://127.0.0.1:9/api/v3/simple/price?ids=bitcoin&vs_currencies=usd,aed,"))
        #expect(url.contains(",eur,") && url.contains(",gbp,") && url.contains(",xau"))
        #expect(!url.contains(",btc"))
    }

    @Test func coingeckoKeepsTheNumberLiteralText() async throws {
        let table = try await fetch(CoinGeckoProvider(now: fixed), body: Fixtures.coingecko)
        #expect(table.source == "coingecko")
        #expect(table.updated == Fixtures.fetchTime)
        #expect(table.rate("USD") == Decimal("91234.5"))
        // 24 significant digits in the JSON: a Double would keep ~17
        #expect(table.rate("EUR")?.description == "84000.123456789012345678")
        #expect(table.rate("GBP") == 72000)
        #expect(table.rate("XAU") == Decimal("34.05"))
        #expect(table.codes == ["BTC", "EUR", "GBP", "USD", "XAU"])
    }

    @Test func coingeckoUsesLastUpdatedAtWhenPresent() async throws {
        let table = try await fetch(CoinGeckoProvider(now: fixed), body: #"{"bitcoin":{"usd":1,"last_updated_at":1700000000}}"#)
        #expect(table.updated == 1_700_000_000)
    }

    @Test func coingeckoErrorsNameTheField() async {
        let p = CoinGeckoProvider(now: fixed)
        #expect(await failure(p, body: #"{"bitcoin":{"usd":"91234.5"}}"#)?.description == "coingecko: malformed: field bitcoin.usd is not a number (got a string)")
        #expect(await failure(p, body: #"{"ethereum":{}}"#)?.detail == "missing field bitcoin")
        #expect(await failure(p, body: #"{"bitcoin":{"usd":1e999}}"#)?.detail == "field bitcoin.usd is out of range")
        #expect(await failure(p, body: #"{"bitcoin":{}}"#)?.detail == "field bitcoin holds no usable rates")
    }

    // MARK: coindesk

    @Test func coindeskRequestShape() async throws {
        let client = StubHTTPClient { _ in StubHTTPClient.json(Fixtures.coindesk) }
        _ = try await CoinDeskProvider(baseURL: "http://mirror.test/").fetch(client: client)
        #expect(client.requests.first?.url == "http://mirror.test/v1/bpi/currentprice.json")
    }

    @Test func coindeskDecodesRatesTimeAndEntities() async throws {
        let table = try await fetch(CoinDeskProvider(), body: Fixtures.coindesk)
        #expect(table.source == "coindesk")
        #expect(table.updated == 1_726_812_300) // 2024-09-20T06:05:00Z
        #expect(table.rate("USD") == Decimal("27564.35"))
        #expect(table.rate("GBP") == Decimal("21342.5114"))
        // no rate_float: the display string, separators removed
        #expect(table.rate("EUR") == Decimal("25682.1014"))
        #expect(table.upstreamCurrencies["USD"] == Currency(code: "USD", name: "United States Dollar", symbol: "$"))
        #expect(table.upstreamCurrencies["GBP"]?.symbol == "£")
        #expect(table.upstreamCurrencies["EUR"]?.symbol == "€")
        #expect(table.upstreamCurrencies["XBT"] == Currency(code: "XBT", name: "Bitcoin (legacy code)", symbol: "€₿"))
    }

    @Test func coindeskErrorsNameTheField() async {
        let p = CoinDeskProvider()
        #expect(await failure(p, body: #"{"bpi":{}}"#)?.detail == "missing field time")
        #expect(await failure(p, body: #"{"time":{"updated":"x"},"bpi":{}}"#)?.detail == "missing field time.updatedISO")
        #expect(await failure(p, body: #"{"time":{"updatedISO":"yesterday"},"bpi":{}}"#)?.detail == "field time.updatedISO is not an ISO 8601 date-time")
        #expect(await failure(p, body: #"{"time":{"updatedISO":"2024-09-20T06:05:00+00:00"}}"#)?.detail == "missing field bpi")
        #expect(await failure(p, body: #"{"time":{"updatedISO":"2024-09-20T06:05:00Z"},"bpi":{"USD":{"code":"USD"}}}"#)?.detail == "missing field bpi.USD.rate_float")
        #expect(await failure(p, body: #"{"time":{"updatedISO":"2024-09-20T06:05:00Z"},"bpi":{"USD":{"rate":"a,b"}}}"#)?.detail == "field bpi.USD.rate is not a decimal number")
        #expect(await failure(p, body: #"{"time":{"updatedISO":"2024-09-20T06:05:00Z"},"bpi":{"USD":{"rate_float":true}}}"#)?.detail == "field bpi.USD.rate_float is not a number (got a boolean)")
    }

    // MARK: shared

    @Test(arguments: ["<html>502 Bad Gateway</html>", "", "{\"data\":", "\u{FEFF}{}"])
    func nonJSONNamesTheProvider(_ body: String) async throws {
        for provider: any RatesProvider in [CoinbaseProvider(now: fixed), CoinGeckoProvider(now: fixed), CoinDeskProvider()] {
            let error = try #require(await failure(provider, body: body))
            #expect(error.kind == .malformed)
            #expect(error.provider == provider.name)
            #expect(error.detail.hasPrefix("response is not JSON"))
        }
    }

    /// A rate written twice could be read as either copy (first-wins and last-wins readers both
    /// exist), so the whole answer is malformed.
    @Test func aNameWrittenTwiceIsMalformed() async throws {
        let bodies: [(any RatesProvider, String)] = [
            (CoinbaseProvider(now: fixed), #"{"data":{"currency":"BTC","rates":{"USD":"1","USD":"1000"}}}"#),
            (CoinGeckoProvider(now: fixed), #"{"bitcoin":{"usd":1,"usd":1000}}"#),
        ]
        for (provider, body) in bodies {
            let error = try #require(await failure(provider, body: body))
            #expect(error.kind == .malformed)
            #expect(error.detail.hasPrefix("response is not JSON (duplicate member name at byte"), "\(error.detail)")
        }
    }

    @Test func httpErrorStatusIsAFailure() async throws {
        let error = try #require(await failure(CoinbaseProvider(now: fixed), body: #"{"errors":[{"id":"rate_limit"}]}"#, status: 429))
        #expect(error.kind == .other)
        #expect(error.description == "coinbase: other: HTTP 429")
    }

    @Test func unknownFieldsAreIgnored() async throws {
        let body = #"{"data":{"currency":"BTC","rates":{"USD":"1"},"new":{"deep":[1,{"x":null}]}},"meta":true}"#
        #expect(try await fetch(CoinbaseProvider(now: fixed), body: body).rate("USD") == 1)
    }
}
