import Foundation

/// Google Books' and Open Library's search on a `StubUpstream`, in their exact request and
/// answer shapes, over a fixed catalogue, so tests can check paging, the keywords that reach
/// each upstream (`StubUpstream.requests`), ids and fallbacks:
///
/// - `GET /books/v1/volumes?q=…&startIndex=…&maxResults=…` → `books#volumes` (Google answers an
///   ISBN query it does not know with `totalItems: 0`; exact routes for known ISBNs win);
/// - `GET /books/v1/volumes/{id}` → one `books#volume`, or Google's 404 envelope;
/// - `GET /search.json?q=…&fields=…&offset=…&limit=…` → `{"numFound","start","docs":[…]}`, and
///   `q=key:/works/OL…W` answers that one work.
public enum BookSearchStub {
    public static let googleSearchPath = "/books/v1/volumes"
    public static let googleVolumePrefix = "/books/v1/volumes/"
    public static let openLibrarySearchPath = "/search.json"
    /// Items in each catalogue.
    public static let catalogueSize = 25

    /// Google's id of catalogue item `n` (12 characters, like Google's).
    public static func googleID(_ n: Int) -> String { "zyTCAlFPj" + String(format: "%03d", n) }
    /// The ISBN-13 of item `n` in either catalogue (odd Open Library works have none).
    /// Item 0's is the full-stack fixture's book (9780306406157), which the ISBN lookup knows.
    public static func isbn13(_ n: Int) -> String {
        n == 0 ? "9780306406157" : withCheckDigit("978000000" + String(format: "%03d", n))
    }
    public static func googleTitle(_ n: Int) -> String { "Google Result \(n)" }
    public static func openLibraryTitle(_ n: Int) -> String { "Open Result \(n)" }
    /// Open Library's work number of item `n`.
    public static func workNumber(_ n: Int) -> Int { 1000 + n }

    /// Routes both searches and Google's volume by id on `stub` (Google's and Open Library's
    /// base URLs at `stub.baseURL`). Call after any `route(googleSearchPath, …)` it replaces.
    public static func script(_ stub: StubUpstream) {
        stub.route(googleSearchPath) { google($0) }
        stub.route(prefix: googleVolumePrefix) { googleVolume($0) }
        stub.route(openLibrarySearchPath) { openLibrary($0) }
    }

    /// Query parameters, percent-decoded (`+` as a space, as forms write it).
    public static func parameters(_ request: StubRequest) -> [String: String] {
        var out: [String: String] = [:]
        for item in (request.query ?? "").split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let value = pair.count > 1 ? String(pair[1]).replacingOccurrences(of: "+", with: " ") : ""
            out[String(pair[0])] = value.removingPercentEncoding ?? value
        }
        return out
    }

    static func google(_ request: StubRequest) -> StubResponse {
        let p = parameters(request)
        guard let q = p["q"], !q.isEmpty else {
            return googleError(400, "Missing query.", reason: "queryRequired", status: "INVALID_ARGUMENT")
        }
        if q.hasPrefix("isbn:"), !q.contains(" ") { return .json(UpstreamFixtures.googleNotFound) }
        let start = Int(p["startIndex"] ?? "0") ?? 0
        let max = Int(p["maxResults"] ?? "10") ?? 10
        guard max >= 1, max <= 40 else {
            return googleError(400, "Invalid value '\(max)'. Values must be within the range: [1, 40]", reason: "invalid",
                               status: "INVALID_ARGUMENT")
        }
        let page = (0..<catalogueSize).dropFirst(start).prefix(max)
        let items = page.map(googleItem).joined(separator: ",")
        return .json(#"{"kind":"books#volumes","totalItems":\#(catalogueSize)"# + (page.isEmpty ? "}" : #","items":[\#(items)]}"#))
    }

    static func googleVolume(_ request: StubRequest) -> StubResponse {
        let id = String(request.path.dropFirst(googleVolumePrefix.count))
        guard let n = (0..<catalogueSize).first(where: { googleID($0) == id }) else {
            return googleError(404, "The volume ID could not be found.", reason: "notFound", status: "NOT_FOUND")
        }
        return .json(googleItem(n))
    }

    /// Item 0 carries the full-stack fixture's ISBN and a thumbnail; item 1 no ISBN at all.
    static func googleItem(_ n: Int) -> String {
        let identifiers: String
        switch n {
        case 0: identifiers = #","industryIdentifiers":[{"type":"ISBN_10","identifier":"0306406152"},{"type":"ISBN_13","identifier":"9780306406157"}]"#
        case 1: identifiers = #","industryIdentifiers":[{"type":"OTHER","identifier":"UOM:39015000000001"}]"#
        default: identifiers = #","industryIdentifiers":[{"type":"ISBN_13","identifier":"\#(isbn13(n))"}]"#
        }
        let image = n == 0
            ? #","imageLinks":{"smallThumbnail":"http://books.google.com/books/content?id=x&zoom=5","thumbnail":"http://books.google.com/books/content?id=x&zoom=1"}"#
            : ""
        return #"{"kind":"books#volume","id":"\#(googleID(n))","etag":"e\#(n)","selfLink":"https://www.googleapis.com/books/v1/volumes/\#(googleID(n))","volumeInfo":{"title":"\#(googleTitle(n))","authors":["Author \#(n)"],"publisher":"Stub Press","publishedDate":"20\#(String(format: "%02d", n))","description":"Volume \#(n).""#
            + identifiers
            + #","pageCount":\#(100 + n),"printType":"BOOK","categories":["Fiction"],"language":"en""#
            + image + #","infoLink":"https://books.google.com/books?id=\#(googleID(n))"}}"#
    }

    static func openLibrary(_ request: StubRequest) -> StubResponse {
        let p = parameters(request)
        let offset = Int(p["offset"] ?? "0") ?? 0
        let limit = Int(p["limit"] ?? "100") ?? 100
        var docs = Array(0..<catalogueSize)
        if let q = p["q"], q.hasPrefix("key:/works/OL") {
            docs = docs.filter { "key:/works/OL\(workNumber($0))W" == q }
        }
        let total = docs.count
        let page = docs.dropFirst(offset).prefix(limit)
        return .json(#"{"numFound":\#(total),"start":\#(offset),"numFoundExact":true,"docs":["#
            + page.map(openLibraryDoc).joined(separator: ",") + "]}")
    }

    /// Even works have an ISBN-13 and a cover; odd ones neither.
    static func openLibraryDoc(_ n: Int) -> String {
        var doc = #"{"key":"/works/OL\#(workNumber(n))W","title":"\#(openLibraryTitle(n))","author_name":["Writer \#(n)"],"publisher":["Open Press"],"first_publish_year":\#(1950 + n)"#
        if n % 2 == 0 { doc += #","isbn":["000000000X","\#(isbn13(n))"],"cover_i":\#(258000 + n)"# }
        return doc + #","number_of_pages_median":\#(200 + n),"language":["eng"],"subject":["Fantasy fiction"]}"#
    }

    static func googleError(_ code: Int, _ message: String, reason: String, status: String) -> StubResponse {
        .json(#"{"error":{"code":\#(code),"message":"\#(message)","errors":[{"message":"\#(message)","domain":"global","reason":"\#(reason)"}],"status":"\#(status)"}}"#,
              status: code)
    }

    /// `twelve` digits and their ISBN-13 check digit.
    static func withCheckDigit(_ twelve: String) -> String {
        let sum = twelve.utf8.enumerated().reduce(0) { $0 + Int($1.element - 48) * ($1.offset % 2 == 0 ? 1 : 3) }
        return twelve + String((10 - sum % 10) % 10)
    }
}
