import Base
import Cache
import HTTPClient
import TestSupport
import Testing
@testable import Books

/// Search parsing and its normal form, minted volume ids, the search record codec and the
/// strict reading of Google's and Open Library's search answers: pure, no sockets.
@Suite struct VolumeSearchQueryTests {
    static func query(_ parameters: [String: String]) throws(VolumeSearchQuery.Invalid) -> VolumeSearchQuery {
        try VolumeSearchQuery { parameters[$0] }
    }

    @Test func termsOperatorsAndPhrases() throws {
        let q = try Self.query(["q": "  INTITLE:\"The   Hobbit\"\tInAuthor:tolkien \"there and back\" foo:bar isbn:978-0 dragons "])
        #expect(q.terms.map(\.normalized) == ["intitle:\"The Hobbit\"", "inauthor:tolkien", "\"there and back\"", "foo:bar",
                                              "isbn:978-0", "dragons"])
        #expect(q.terms[0].keyword == .intitle && q.terms[0].text == "The Hobbit" && q.terms[0].quoted)
        #expect(q.terms[3].keyword == nil, "an operator Google does not document is a word")
        #expect(q.values(of: .inauthor).map(\.text) == ["tolkien"])
        #expect(q.normalizedQ == #"intitle:"The Hobbit" inauthor:tolkien "there and back" foo:bar isbn:978-0 dragons"#)
    }

    @Test func spellingsOfOneSearchShareOneNormalForm() throws {
        let a = try Self.query(["q": "INTITLE:hobbit  tolkien"])
        let b = try Self.query(["q": "intitle:hobbit tolkien", "maxResults": "10", "startIndex": "0", "orderBy": "RELEVANCE",
                                "printType": "PRINT_TYPE_UNDEFINED", "projection": "full", "key": "k", "fields": "items",
                                "prettyPrint": "false"])
        #expect(a.normalized == b.normalized)
        #expect(a.normalized == "maxResults=10&orderBy=relevance&printType=all&projection=full&q=intitle:hobbit tolkien&startIndex=0")
        #expect(VolumeSearchKey(a) == VolumeSearchKey(b))
        // Words keep their case; paging and filters are part of the key.
        #expect(try Self.query(["q": "Hobbit"]).normalized != (try Self.query(["q": "hobbit"])).normalized)
        #expect(try Self.query(["q": "hobbit", "startIndex": "10"]).normalized != (try Self.query(["q": "hobbit"])).normalized)
        let filtered = try Self.query(["q": "hobbit", "langRestrict": "PT-br", "orderBy": "newest"])
        #expect(filtered.normalized == "langRestrict=pt-br&maxResults=10&orderBy=newest&printType=all&projection=full&q=hobbit&startIndex=0")
        // Printable ASCII in the shared layer's key.
        #expect(VolumeSearchKey(filtered).sharedCacheKeyBytes.allSatisfy { $0 > 0x20 && $0 < 0x7F })
    }

    @Test(arguments: [
        ["q": ""], ["q": "  "], [:], ["q": "\"open phrase"], ["q": "intitle:"], ["q": "a\u{1}b"], ["q": String(repeating: "a", count: 513)],
        ["q": "x", "maxResults": "0"], ["q": "x", "maxResults": "41"], ["q": "x", "maxResults": "+5"], ["q": "x", "startIndex": "-1"],
        ["q": "x", "startIndex": "10001"], ["q": "x", "startIndex": "1e3"], ["q": "x", "orderBy": "oldest"],
        ["q": "x", "printType": "films"], ["q": "x", "projection": "max"], ["q": "x", "langRestrict": "english"],
        ["q": "x", "langRestrict": "e"], ["q": "x", "langRestrict": "en-"], ["q": "x", "maxResults": "１０"],
    ])
    func malformedSearchesAreRefusedWithAReason(parameters: [String: String]) {
        #expect(throws: VolumeSearchQuery.Invalid.self) { try Self.query(parameters) }
        do {
            _ = try Self.query(parameters)
        } catch {
            #expect(!error.message.isEmpty)
        }
    }
}

@Suite struct VolumeIDTests {
    @Test func isbnIdsAreStableAndDecodeBack() throws {
        for text in ["9780306406157", "9791032305690", "9780000000002", "9789999999991"] {
            let isbn = try ISBN(parsing: text)
            let id = VolumeID.minted(for: isbn)
            #expect(id.utf8.count == 12)
            #expect(id.utf8.allSatisfy { VolumeID.alphabet.contains($0) })
            #expect(VolumeID.decode(id) == .isbn(isbn))
            #expect(VolumeID.minted(for: isbn) == id)
        }
        #expect(VolumeID.minted(for: try ISBN(parsing: "0306406152")) == VolumeID.minted(for: try ISBN(parsing: "9780306406157")))
    }

    @Test func workIdsDecodeBack() {
        for number: UInt64 in [0, 1, 45804, 99_999_999, VolumeID.maxNumber] {
            let id = VolumeID.minted(forWork: number)
            #expect(id.flatMap(VolumeID.decode) == .work(number))
        }
        #expect(VolumeID.minted(forWork: VolumeID.maxNumber + 1) == nil)
        #expect(VolumeID.minted(forWork: 1) != VolumeID.minted(for: try! ISBN(parsing: "9780306406157")))
    }

    @Test func otherIdsAreNotMinted() throws {
        let minted = VolumeID.minted(for: try ISBN(parsing: "9780306406157"))
        for id in ["zyTCAlFPjgYC", "pD6arNyKyi8C", "", "short", minted + "A", String(minted.dropLast()), "AAAAAAAAAAAA", "////////////"] {
            #expect(VolumeID.decode(id) == nil, "\(id)")
        }
        // Any one character changed breaks the check.
        var bytes = Array(minted.utf8)
        for i in bytes.indices {
            let original = bytes[i]
            bytes[i] = original == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            #expect(VolumeID.decode(String(decoding: bytes, as: UTF8.self)) == nil)
            bytes[i] = original
        }
    }

    @Test func workKeys() {
        #expect(VolumeID.workNumber(fromKey: "/works/OL45804W") == 45804)
        for key in ["/works/OLW", "/works/OL45804", "/books/OL45804M", "/works/OL-1W", "/works/OL４W", "/works/OL99999999999999999W", ""] {
            #expect(VolumeID.workNumber(fromKey: key) == nil, "\(key)")
        }
    }
}

@Suite struct VolumeSearchRecordTests {
    static let isbn = try! ISBN(parsing: "9780306406157")
    static let full = Volume(id: "zyTCAlFPjgYC", isbn: isbn, title: "Le Petit Prince ✈️", subtitle: "\u{0}", authors: ["A", "زيد"],
                             publisher: "P", publishedDate: "1943", description: "\"d\"", pageCount: 96, categories: ["童話"],
                             language: "fr", infoLink: "https://books.google.com/books?id=zyTCAlFPjgYC", hasImage: true,
                             source: "google-books")

    @Test func resultsRoundTrip() {
        let results = [
            VolumeSearchResult(totalItems: 412, items: [Self.full, Volume(id: "x", source: "open-library")], source: "google-books"),
            VolumeSearchResult.notFound(source: "google-books"),
            VolumeSearchResult(totalItems: 0, items: [], source: ""),
        ]
        for result in results {
            #expect(SharedCacheValueProbe.roundTripFindings(result).isEmpty, "\(result)")
            #expect(VolumeSearchResult(sharedCacheBytes: result.sharedCacheBytes) == result)
        }
    }

    @Test func damagedRecordsAreRefused() {
        let bytes = VolumeSearchResult(totalItems: 1, items: [Self.full], source: "google-books").sharedCacheBytes
        #expect(VolumeSearchResult(sharedCacheBytes: bytes + [0]) == nil)
        #expect(VolumeSearchResult(sharedCacheBytes: Array(bytes.dropLast())) == nil)
        #expect(VolumeSearchResult(sharedCacheBytes: []) == nil)
        // A wrong check digit where the ISBN-13 goes.
        let text = Array("9780306406157".utf8), wrong = Array("9780306406158".utf8)
        if let at = (0...(bytes.count - text.count)).first(where: { Array(bytes[$0..<($0 + text.count)]) == text }) {
            var damaged = bytes
            damaged.replaceSubrange(at..<(at + text.count), with: wrong)
            #expect(VolumeSearchResult(sharedCacheBytes: damaged) == nil)
        } else {
            Issue.record("no ISBN in the record")
        }
        var random = SplitMix64(seed: 26)
        let damage = SharedCacheValueProbe.damageFindings(VolumeSearchResult(totalItems: 1, items: [Self.full], source: "google-books"),
                                                          cases: 2_000, random: &random)
        #expect(damage.isEmpty, "\(damage.prefix(5))")
        // More items than a page holds.
        let many = VolumeSearchResult(totalItems: 41, items: Array(repeating: Volume(id: "x", source: "s"), count: 41), source: "s")
        #expect(VolumeSearchResult(sharedCacheBytes: many.sharedCacheBytes) == nil)
    }
}

@Suite struct SearchAnswerDecodingTests {
    static func google(_ json: String, limit: Int = 10) throws(UpstreamError) -> VolumeSearchResult {
        try GoogleVolumeJSON.page(Array(json.utf8), provider: "google-books", limit: limit)
    }

    static func openLibrary(_ json: String, limit: Int = 10) throws(UpstreamError) -> VolumeSearchResult {
        try OpenLibrarySearchJSON.page(Array(json.utf8), provider: "open-library", limit: limit)
    }

    @Test func googleItemsKeepTheirIdsAndOnlySafeLinks() throws {
        let page = try Self.google(#"""
        {"kind":"books#volumes","totalItems":3,"items":[
         {"id":"zyTCAlFPjgYC","volumeInfo":{"title":"T","industryIdentifiers":[{"type":"ISBN_10","identifier":"0306406152"},{"type":"OTHER","identifier":"x"}],
          "infoLink":"javascript:alert(1)","imageLinks":{"thumbnail":"http://books.google.com/x"}}},
         {"id":"abc_-123","volumeInfo":{"infoLink":"https://books.google.com/books?id=abc_-123"}}]}
        """#)
        #expect(page.totalItems == 3)
        #expect(page.items.map(\.id) == ["zyTCAlFPjgYC", "abc_-123"])
        #expect(page.items[0].isbn?.isbn13 == "9780306406157")
        #expect(page.items[0].infoLink == nil && page.items[0].hasImage)
        #expect(page.items[1].infoLink == "https://books.google.com/books?id=abc_-123" && !page.items[1].hasImage)
        #expect(page.items[1].coverPath == nil)
    }

    @Test(arguments: [
        #"{"items":[{"volumeInfo":{}}]}"#, #"{"items":[{"id":"a/b"}]}"#, #"{"items":[{"id":""}]}"#,
        #"{"totalItems":"3"}"#, #"{"items":[{"id":"a","volumeInfo":{"pageCount":"12"}}]}"#, "[]", "not json",
    ])
    func malformedGoogleAnswersAre502s(json: String) {
        #expect(throws: UpstreamError.self) { try Self.google(json) }
    }

    @Test func aGooglePageLongerThanAskedIsRefused() {
        #expect(throws: UpstreamError.self) { try Self.google(#"{"items":[{"id":"a"},{"id":"b"}]}"#, limit: 1) }
    }

    @Test func openLibraryDocsGetMintedIds() throws {
        let page = try Self.openLibrary(#"""
        {"numFound":2,"start":0,"docs":[
         {"key":"/works/OL45804W","title":"The Hobbit","author_name":["J.R.R. Tolkien"],"publisher":["Allen"],"first_publish_year":1937,
          "isbn":["bad","0306406152","9780306406157"],"number_of_pages_median":310,"language":["eng"],"subject":["a","b"],"cover_i":1},
         {"key":"/works/OL7W","title":"No ISBN","cover_i":2}]}
        """#)
        #expect(page.items.count == 2)
        #expect(page.items[0].id == VolumeID.minted(for: try ISBN(parsing: "9780306406157")))
        #expect(page.items[0].publishedDate == "1937" && page.items[0].pageCount == 310 && page.items[0].language == "eng")
        #expect(page.items[0].coverPath == "/v1/books/9780306406157/cover")
        #expect(page.items[1].id == VolumeID.minted(forWork: 7))
        #expect(page.items[1].coverPath == nil, "no ISBN-13, no cover route")
    }

    @Test(arguments: [#"{"docs":[{"title":"x"}]}"#, #"{"docs":[{"key":"/books/OL1M"}]}"#, #"{"numFound":"2"}"#,
                      #"{"docs":[{"key":"/works/OL1W","first_publish_year":"1937"}]}"#])
    func malformedOpenLibraryAnswersAre502s(json: String) {
        #expect(throws: UpstreamError.self) { try Self.openLibrary(json) }
    }
}

/// The `shared-values` fuzz target's seeds of search pages.
@Suite struct VolumeSearchSeedTests {
    @Test func seedsAreCurrent() {
        let seeds: [(name: String, bytes: [UInt8])] = [
            ("search-page", VolumeSearchResult(totalItems: 412, items: [VolumeSearchRecordTests.full, Volume(id: "x", source: "open-library")],
                                               source: "google-books").sharedCacheBytes),
            ("volume-not-found", VolumeSearchResult.notFound(source: "google-books").sharedCacheBytes),
        ]
        #expect(FuzzSeeds.findings(target: "shared-values", seeds: seeds) == [])
    }
}
