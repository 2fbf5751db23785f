import TestSupport
import HTTPClient
import HTTPClientTestSupport
import Synchronization
@testable import Books

/// Upstream answers recorded from Google Books and Open Library (trimmed to the fields almanac
/// reads, plus a few it ignores, as the real ones carry).
enum Fixtures {
    static let pragmatic13 = "9780201616224"
    static let pragmatic10 = "020161622X"

    /// Google's search for the first edition returns the 20th anniversary edition first: the
    /// seed app's `items[0]` showed the wrong book.
    static let googlePragmatic = """
    {
      "kind": "books#volumes",
      "totalItems": 2,
      "items": [
        {
          "kind": "books#volume",
          "id": "LhOlDwAAQBAJ",
          "volumeInfo": {
            "title": "The Pragmatic Programmer",
            "subtitle": "Your journey to mastery, 20th Anniversary Edition",
            "authors": ["David Thomas", "Andrew Hunt"],
            "publisher": "Addison-Wesley Professional",
            "publishedDate": "2019-07-30",
            "industryIdentifiers": [
              {"type": "ISBN_13", "identifier": "9780135956977"},
              {"type": "ISBN_10", "identifier": "0135956975"}
            ],
            "pageCount": 390,
            "language": "en"
          }
        },
        {
          "kind": "books#volume",
          "id": "5wBQEp6ruIAC",
          "etag": "kR1uHhu6Iq8",
          "volumeInfo": {
            "title": "The Pragmatic Programmer",
            "subtitle": "From Journeyman to Master",
            "authors": ["Andrew Hunt", "David Thomas"],
            "publisher": "Addison-Wesley Professional",
            "publishedDate": "1999-10-20",
            "description": "Straight from the programming trenches, The Pragmatic Programmer cuts through the increasing specialization and technicalities of modern software development.",
            "industryIdentifiers": [
              {"type": "ISBN_10", "identifier": "020161622X"},
              {"type": "ISBN_13", "identifier": "9780201616224"}
            ],
            "readingModes": {"text": false, "image": true},
            "pageCount": 352,
            "printType": "BOOK",
            "categories": ["Computers"],
            "maturityRating": "NOT_MATURE",
            "imageLinks": {
              "smallThumbnail": "http://books.google.com/books/content?id=5wBQEp6ruIAC&printsec=frontcover&img=1&zoom=5&source=gbs_api",
              "thumbnail": "http://books.google.com/books/content?id=5wBQEp6ruIAC&printsec=frontcover&img=1&zoom=1&source=gbs_api"
            },
            "language": "en",
            "previewLink": "http://books.google.com/books?id=5wBQEp6ruIAC&printsec=frontcover&dq=isbn:9780201616224&hl=&cd=1&source=gbs_api"
          }
        }
      ]
    }
    """

    /// The same book without `pageCount`, `description` or covers: Google often lacks them.
    static let googlePragmaticThin = """
    {"kind":"books#volumes","totalItems":1,"items":[{"kind":"books#volume","id":"5wBQEp6ruIAC","volumeInfo":{
      "title":"The Pragmatic Programmer","authors":["Andrew Hunt","David Thomas"],
      "publishedDate":"1999","industryIdentifiers":[{"type":"ISBN_13","identifier":"9780201616224"}],
      "language":"en"}}]}
    """

    static let googleNotFound = UpstreamFixtures.googleNotFound

    static let openLibraryPragmatic = """
    {"ISBN:9780201616224": {
      "url": "https://openlibrary.org/books/OL7589638M/The_pragmatic_programmer",
      "key": "/books/OL7589638M",
      "title": "The pragmatic programmer",
      "subtitle": "from journeyman to master",
      "authors": [
        {"url": "https://openlibrary.org/authors/OL2653686A/Andrew_Hunt", "name": "Andrew Hunt"},
        {"url": "https://openlibrary.org/authors/OL2653687A/David_Thomas", "name": "David Thomas"}
      ],
      "number_of_pages": 321,
      "identifiers": {"isbn_10": ["020161622X"], "isbn_13": ["9780201616224"], "openlibrary": ["OL7589638M"]},
      "publishers": [{"name": "Addison-Wesley"}],
      "publish_date": "2000",
      "subjects": [
        {"name": "Computer programming", "url": "https://openlibrary.org/subjects/computer_programming"},
        {"name": "Software engineering", "url": "https://openlibrary.org/subjects/software_engineering"}
      ],
      "cover": {
        "small": "https://covers.openlibrary.org/b/id/8090534-S.jpg",
        "medium": "https://covers.openlibrary.org/b/id/8090534-M.jpg",
        "large": "https://covers.openlibrary.org/b/id/8090534-L.jpg"
      }
    }}
    """

    static let openLibraryNotFound = "{}"

    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0xFF, 0xD9]
}

/// A scripted pair of upstreams on their real hosts, answering by host; requests are recorded by
/// the wrapped `StubHTTPClient`.
struct Upstreams {
    var google: @Sendable (UpstreamRequest) async throws -> UpstreamResponse = { _ in StubHTTPClient.json(Fixtures.googleNotFound) }
    var openLibrary: @Sendable (UpstreamRequest) async throws -> UpstreamResponse = { _ in StubHTTPClient.json(Fixtures.openLibraryNotFound) }
    var covers: @Sendable (UpstreamRequest) async throws -> UpstreamResponse = { _ in
        UpstreamResponse(status: 200, headers: ["Content-Type": "image/jpeg"], body: Fixtures.jpeg)
    }

    func client() -> StubHTTPClient {
        let (google, openLibrary, covers) = (self.google, self.openLibrary, self.covers)
        return StubHTTPClient { request in
            switch UpstreamURL.host(of: request.url) {
            case "www.googleapis.com": return try await google(request)
            case "openlibrary.org": return try await openLibrary(request)
            default: return try await covers(request)
            }
        }
    }
}

extension StubHTTPClient {
    func count(_ provider: String) -> Int { requests.filter { $0.provider == provider }.count }
    func count(host: String) -> Int { requests.filter { UpstreamURL.host(of: $0.url) == host }.count }
}


func isbn(_ text: String) -> ISBN { try! ISBN(parsing: text) }
