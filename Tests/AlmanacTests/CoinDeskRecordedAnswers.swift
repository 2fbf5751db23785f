import Foundation
import Rates

/// Answers the real CoinDesk Bitcoin Price Index v1 (`api.coindesk.com/v1/bpi/…`) gave,
/// byte for byte, as its users recorded them while it was live and published them as sample
/// answers and test fixtures in their own public code (each one's date is its
/// `time.updated`). The API was retired in 2025, so they cannot be recorded again; they are
/// the reference the CoinDesk-compatible endpoints are compared with (key order at every
/// level, field sets, number and time formats).
///
/// The formats these show held from 2013 to 2023: `rate` with exactly 4 decimals, `rate_float`
/// the same number without trailing zeros. (CoinDesk's last answers, in 2024, printed `rate`
/// with a varying number of decimals; almanac keeps the format clients were written for.)
enum CoinDeskRecordedAnswers {
    /// CoinDesk's own disclaimer; almanac writes its own in its place (it is not the index).
    static let disclaimer = "This data was produced from the CoinDesk Bitcoin Price Index (USD). Non-USD currency data converted using hourly conversion rate from openexchangerates.org"

    // MARK: currentprice/{CODE}.json: time, disclaimer, bpi (no chartName); USD then CODE; no symbol

    /// `GET /v1/bpi/currentprice/AUD.json`, 2020-12-16 (GMT).
    static let aud = #"{"time":{"updated":"Dec 16, 2020 00:58:00 UTC","updatedISO":"2020-12-16T00:58:00+00:00","updateduk":"Dec 16, 2020 at 00:58 GMT"},"disclaimer":"This data was produced from the CoinDesk Bitcoin Price Index (USD). Non-USD currency data converted using hourly conversion rate from openexchangerates.org","bpi":{"USD":{"code":"USD","rate":"19,395.1400","description":"United States Dollar","rate_float":19395.14},"AUD":{"code":"AUD","rate":"25,663.5329","description":"Australian Dollar","rate_float":25663.5329}}}"#

    /// `GET /v1/bpi/currentprice/USD.json`, 2023-03-30 (BST): USD alone.
    static let usd = #"{"time":{"updated":"Mar 30, 2023 21:27:00 UTC","updatedISO":"2023-03-30T21:27:00+00:00","updateduk":"Mar 30, 2023 at 22:27 BST"},"disclaimer":"This data was produced from the CoinDesk Bitcoin Price Index (USD). Non-USD currency data converted using hourly conversion rate from openexchangerates.org","bpi":{"USD":{"code":"USD","rate":"28,109.4393","description":"United States Dollar","rate_float":28109.4393}}}"#

    /// `GET /v1/bpi/currentprice/XBT.json`, 2021-02-08 (GMT): XBT keeps its code, at 1.
    static let xbt = #"{"time":{"updated":"Feb 8, 2021 21:27:00 UTC","updatedISO":"2021-02-08T21:27:00+00:00","updateduk":"Feb 8, 2021 at 21:27 GMT"},"disclaimer":"This data was produced from the CoinDesk Bitcoin Price Index (USD). Non-USD currency data converted using hourly conversion rate from openexchangerates.org","bpi":{"USD":{"code":"USD","rate":"44,223.2105","description":"United States Dollar","rate_float":44223.2105},"XBT":{"code":"XBT","rate":"1.0000","description":"Bitcoin","rate_float":1}}}"#

    /// `GET /v1/bpi/currentprice/BTC.json`, 2021-05-08 (BST).
    static let btc = #"{"time":{"updated":"May 8, 2021 11:31:00 UTC","updatedISO":"2021-05-08T11:31:00+00:00","updateduk":"May 8, 2021 at 12:31 BST"},"disclaimer":"This data was produced from the CoinDesk Bitcoin Price Index (USD). Non-USD currency data converted using hourly conversion rate from openexchangerates.org","bpi":{"USD":{"code":"USD","rate":"58,739.6211","description":"United States Dollar","rate_float":58739.6211},"BTC":{"code":"BTC","rate":"1.0000","description":"Bitcoin","rate_float":1}}}"#

    // MARK: currentprice.json: time, disclaimer, chartName, bpi with USD, GBP, EUR and symbols

    /// `GET /v1/bpi/currentprice.json`, 2020-09-01 (BST).
    static let headlineSummer = #"{"time":{"updated":"Sep 1, 2020 03:56:00 UTC","updatedISO":"2020-09-01T03:56:00+00:00","updateduk":"Sep 1, 2020 at 04:56 BST"},"disclaimer":"This data was produced from the CoinDesk Bitcoin Price Index (USD). Non-USD currency data converted using hourly conversion rate from openexchangerates.org","chartName":"Bitcoin","bpi":{"USD":{"code":"USD","symbol":"&#36;","rate":"11,687.4855","description":"United States Dollar","rate_float":11687.4855},"GBP":{"code":"GBP","symbol":"&pound;","rate":"8,928.9000","description":"British Pound Sterling","rate_float":8928.9},"EUR":{"code":"EUR","symbol":"&euro;","rate":"9,908.8489","description":"Euro","rate_float":9908.8489}}}"#

    /// `GET /v1/bpi/currentprice.json`, 2023-02-15 (GMT).
    static let headlineWinter = #"{"time":{"updated":"Feb 15, 2023 11:15:00 UTC","updatedISO":"2023-02-15T11:15:00+00:00","updateduk":"Feb 15, 2023 at 11:15 GMT"},"disclaimer":"This data was produced from the CoinDesk Bitcoin Price Index (USD). Non-USD currency data converted using hourly conversion rate from openexchangerates.org","chartName":"Bitcoin","bpi":{"USD":{"code":"USD","symbol":"&#36;","rate":"22,242.3013","description":"United States Dollar","rate_float":22242.3013},"GBP":{"code":"GBP","symbol":"&pound;","rate":"18,585.4890","description":"British Pound Sterling","rate_float":18585.489},"EUR":{"code":"EUR","symbol":"&euro;","rate":"21,667.2488","description":"Euro","rate_float":21667.2488}}}"#

    // MARK: supported-currencies.json

    /// `GET /v1/bpi/supported-currencies.json`, an excerpt (the whole list had ~165 entries,
    /// sorted by code): both BTC and XBT, as "Bitcoin".
    static let supportedCurrenciesExcerpt = #"[{"currency":"AED","country":"United Arab Emirates Dirham"},{"currency":"AFN","country":"Afghan Afghani"},{"currency":"BSD","country":"Bahamian Dollar"},{"currency":"BTC","country":"Bitcoin"},{"currency":"BTN","country":"Bhutanese Ngultrum"},{"currency":"EUR","country":"Euro"},{"currency":"GBP","country":"British Pound Sterling"},{"currency":"JPY","country":"Japanese Yen"},{"currency":"USD","country":"United States Dollar"},{"currency":"XAU","country":"Gold (troy ounce)"},{"currency":"XBT","country":"Bitcoin"},{"currency":"XCD","country":"East Caribbean Dollar"}]"#

    /// `answer` as almanac writes it for the same data: CoinDesk's disclaimer replaced by
    /// almanac's for `source` (everything else must be identical).
    static func asAlmanac(_ answer: String, source: String = "coindesk") -> String {
        answer.replacingOccurrences(of: disclaimer, with: CoinDeskBPIRenderer.disclaimer(source: source))
    }
}
