// The in-process upstreams the `app` target's apps talk to: no network, every answer built
// from the request (the ISBN asked for is echoed, so books decode), one fixed scenario per app.
import Foundation
import HTTPClient

/// How every upstream of one app answers.
enum UpstreamScenario: Int, CaseIterable, Sendable {
    /// Every provider answers its documented shape (a book with a cover, a cover image).
    case healthy
    /// Well-formed JSON carrying hostile values: rates of "0", "-5", "NaN", 1e999, objects;
    /// book text with combining marks, joiners, RTL overrides, fullwidth digits; odd covers.
    case hostileValues
    /// Every upstream answers 500.
    case serverErrors
    /// Every upstream times out (the client's error, as libcurl's would be).
    case timeouts
    /// Every upstream answers 302 to another host.
    case redirects
    /// Bodies that are not JSON, empty, or truncated.
    case garbage
    /// No provider knows any book; the rate table is BTC only.
    case nothingKnown
    /// Rates from CoinDesk's v1 shape only (the app is configured with that provider alone).
    case coindeskOnly
}

/// The one `HTTPClient` of a fuzzed app: answers from `scenario`, instantly.
struct ScenarioClient: HTTPClient {
    let scenario: UpstreamScenario

    func get(_ request: UpstreamRequest) async throws -> UpstreamResponse {
        switch scenario {
        case .serverErrors: return json("{\"error\":\"boom\"}", status: 500)
        case .timeouts: throw UpstreamError(.timeout, provider: request.provider, detail: "timed out after 5000 ms")
        case .redirects: return UpstreamResponse(status: 302, headers: ["Location": "http://169.254.169.254/latest"], body: [])
        case .garbage: return json(["", "{", "[1,2", "<html>", "{\"data\":", "\u{0}\u{FFFF}"][request.url.utf8.count % 6])
        default: break
        }
        let isbn = Self.isbn(in: request.url)
        switch request.provider {
        case "coinbase": return json(scenario == .hostileValues ? Self.coinbaseHostile : scenario == .nothingKnown ? Self.coinbaseBTCOnly : Self.coinbase)
        case "coingecko": return json(scenario == .hostileValues ? Self.coingeckoHostile : Self.coingecko)
        case "coindesk": return json(Self.coindesk)
        case "google-books":
            if scenario == .nothingKnown { return json("{\"kind\":\"books#volumes\",\"totalItems\":0}") }
            return json(scenario == .hostileValues ? Self.googleHostile(isbn) : Self.google(isbn))
        case "open-library":
            if request.url.contains("/api/books") {
                if scenario == .nothingKnown { return json("{}") }
                return json(scenario == .hostileValues ? Self.openLibraryHostile(isbn) : Self.openLibrary(isbn))
            }
            // Hostile: a scripted SVG labelled as an image (its bytes, not the label, decide).
            if scenario == .hostileValues {
                return UpstreamResponse(status: 200, headers: ["Content-Type": "image/png"],
                                        body: Array("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>".utf8))
            }
            return UpstreamResponse(status: 200, headers: ["Content-Type": "image/jpeg"],
                                    body: [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0xFF, 0xD9])
        default:
            return UpstreamResponse(status: 200, headers: ["Content-Type": "image/jpeg"], body: [0xFF, 0xD8, 0xFF, 0xD9])
        }
    }

    private func json(_ text: String, status: Int = 200) -> UpstreamResponse {
        UpstreamResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(text.utf8))
    }

    /// The 13 digits after `isbn:` / `ISBN:` in an upstream URL (almanac only ever sends a
    /// canonical ISBN-13 there).
    static func isbn(in url: String) -> String {
        let bytes = Array(url.utf8)
        for i in bytes.indices where i + 5 + 13 <= bytes.count {
            if bytes[i] | 0x20 == UInt8(ascii: "i"), bytes[i + 1] | 0x20 == UInt8(ascii: "s"), bytes[i + 4] == UInt8(ascii: ":") {
                return String(decoding: bytes[(i + 5)..<(i + 18)], as: UTF8.self)
            }
        }
        return "9780306406157"
    }

    static let coinbase = #"{"data":{"currency":"BTC","rates":{"USD":"91234.56","EUR":"84000.1","GBP":"71000.5","JPY":"13800000","KRW":"125000000","BTC":"1"}}}"#
    static let coinbaseBTCOnly = #"{"data":{"currency":"BTC","rates":{"BTC":"1","XYZW":"5"}}}"#
    static let coinbaseHostile = #"{"data":{"currency":"btc","rates":{"USD":"0","EUR":"-5","GBP":"NaN","JPY":"1e999","CHF":{"v":1},"KRW":"1e-40","usd":"91234.56","AUD":"1,5","CAD":"12.5","SEK":"\u0661\u0662","NOK":"1\u0301"}}}"#
    static let coingecko = #"{"bitcoin":{"usd":91234.56,"eur":84000.1,"gbp":71000.5,"last_updated_at":1732406400}}"#
    static let coingeckoHostile = #"{"bitcoin":{"usd":0,"eur":-1,"gbp":1e400,"jpy":"12","cad":2.5,"last_updated_at":9223372036854775807}}"#
    static let coindesk = #"{"time":{"updated":"Nov 24, 2026 10:00:00 UTC","updatedISO":"2026-11-24T10:00:00+00:00"},"bpi":{"USD":{"code":"USD","symbol":"&#36;","rate":"91,234.5600","description":"United States Dollar","rate_float":91234.56},"GBP":{"code":"GBP","rate":"0","rate_float":0},"EUR":{"code":"EUR","symbol":"&euro;","rate":"84,000.1000","description":"Euro","rate_float":"x"}}}"#

    static func google(_ isbn: String) -> String {
        #"{"kind":"books#volumes","totalItems":1,"items":[{"kind":"books#volume","volumeInfo":{"title":"Fundamentals","subtitle":"A primer","authors":["Ada Example"],"publisher":"Example Press","publishedDate":"1986","description":"Numbers.","industryIdentifiers":[{"type":"ISBN_13","identifier":""# + isbn + #""}],"pageCount":321,"categories":["Mathematics"],"language":"en","imageLinks":{"thumbnail":"http://books.google.com/books/content?id=x&printsec=frontcover&img=1"}}}]}"#
    }

    static func googleHostile(_ isbn: String) -> String {
        #"{"kind":"books#volumes","totalItems":1,"items":[{"kind":"books#volume","volumeInfo":{"title":"1\u0301\u0308\u200D\uFE0F\u20E3","subtitle":"\u202E\u200Fevil","authors":["\uD83D\uDC69\uD83C\uDFFB\u200D\uD83D\uDCBB"," "],"publishedDate":"\uFF11\uFF19\uFF18\uFF16","industryIdentifiers":[{"type":"ISBN_13","identifier":""# + isbn + #"\u0301"},{"type":"ISBN_13","identifier":""# + isbn + #""}],"pageCount":-3,"categories":["\u0000"],"language":"\u0661","imageLinks":{"thumbnail":"file:///etc/passwd","smallThumbnail":"http://169.254.169.254:80/x"}}}]}"#
    }

    static func openLibrary(_ isbn: String) -> String {
        #"{"ISBN:"# + isbn + #"":{"title":"Fundamentals of statistics","authors":[{"name":"A. Example"}],"number_of_pages":321,"cover":{"large":"https://covers.openlibrary.org/b/id/8090534-L.jpg"}}}"#
    }

    static func openLibraryHostile(_ isbn: String) -> String {
        #"{"ISBN:"# + isbn + #"":{"title":"\u0661\u0662\u0663","authors":[{"name":"\u200D"}],"number_of_pages":"9999999999999999999999","cover":{"large":"http://user:pw@covers.openlibrary.org:8080/b/id/1-L.jpg"}}}"#
    }
}
