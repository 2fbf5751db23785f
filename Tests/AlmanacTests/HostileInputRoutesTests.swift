import Foundation
import HTTP1
import Web
import Rates
import Testing
@testable import Almanac

/// Request text is split, trimmed and compared as bytes, never as `Character`s (a `,`, a space
/// or a digit followed by a combining mark is one grapheme cluster), on every route that reads
/// text; and echoed input is clipped by Unicode scalars.
@Suite struct HostileInputRoutesTests {
    @Test func batchSplitsAtEveryCommaByte() async throws {
        let harness = BooksHarness()
        // ",\u{301}" is one Character: a Character split would see one entry here, not two.
        let response = await harness.get("/v1/books?isbn=9780306406157,%CC%81020161622X")
        #expect(response.status == .ok)
        let results = try #require(try json(response)["results"] as? [String: Any])
        #expect(results.count == 2)
        let second = try #require(results["\u{301}020161622X"] as? [String: Any])
        #expect((second["error"] as? [String: Any])?["status"] as? Int == 400)
    }

    @Test func batchCountsEntriesAsGiven() async throws {
        let harness = BooksHarness()
        let twentyOne = Array(repeating: "9780306406157", count: 21).joined(separator: ",")
        let response = await harness.get("/v1/books?isbn=" + twentyOne)
        #expect(response.status == .badRequest)
        #expect((try json(response)["detail"] as? String)?.contains("got 21") == true)
        // Repeated isbn= parameters count too; empty items do not.
        let split = await harness.get("/v1/books?isbn=" + Array(repeating: "0306406152", count: 11).joined(separator: ",")
                                      + "&isbn=" + Array(repeating: "9780306406157", count: 10).joined(separator: ","))
        #expect(split.status == .badRequest)
        let twenty = await harness.get("/v1/books?isbn=,," + Array(repeating: "9780306406157", count: 20).joined(separator: ",,"))
        #expect(twenty.status == .ok)
        let results = try #require(try json(twenty)["results"] as? [String: Any])
        #expect(results.count == 1)
        #expect(harness.count("google-books") == 1)
    }

    @Test func batchKeysDifferingInBytesStayApart() async throws {
        // U+212A KELVIN SIGN is canonically equivalent to "K": equal as Strings, not as bytes.
        let harness = BooksHarness()
        let response = await harness.get("/v1/books?isbn=%E2%84%AA,K")
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body.contains("\"\u{212A}\":") && body.contains("\"K\":"), "\(body)")
    }

    @Test(arguments: ["isbn:9780306406157%CC%81", "%1Asbn:9780306406157", "isbn%1A9780306406157"])
    func volumesQueryIsMatchedByBytes(q: String) async throws {
        let harness = BooksHarness()
        let response = await harness.get("/books/v1/volumes?q=" + q)
        #expect(response.status == .badRequest)
        #expect(harness.client.requests.isEmpty)
    }

    /// A combining mark after `isbn` or a full-width digit makes the text no ISBN query: it
    /// is searched for as written, never looked up as the ISBN it resembles.
    @Test(arguments: ["ISBN%CC%81:9780306406157", "isbn%CC%81:9780306406157", "97803064061%EF%BC%957"])
    func lookalikeISBNQueriesAreSearches(q: String) async throws {
        let harness = BooksHarness()
        _ = await harness.get("/books/v1/volumes?q=" + q)
        #expect(!harness.client.requests.isEmpty)
        let urls = harness.client.requests.map(\.url)
        #expect(!urls.isEmpty && urls.allSatisfy { !$0.contains("q=isbn:") && ($0.contains("startIndex=") || $0.contains("search.json")) },
                "\(urls)")
    }

    @Test func echoedInputIsClippedByScalars() async throws {
        // One digit and 2,000 combining marks: one Character, 4,001 bytes.
        let marks = String(repeating: "%CC%81", count: 2000)
        let books = await BooksHarness().get("/v1/books/1" + marks)
        #expect(books.status == .badRequest)
        let detail = try #require(try json(books)["detail"] as? String)
        #expect(detail.unicodeScalars.count < 200, "\(detail.utf8.count) bytes")
        let (rates, _) = await RatesHarness().get("/v1/rates/U" + marks)
        #expect(rates.status == .badRequest)
        guard case let .string(ratesDetail)? = rates.ratesJSON?["detail"] else { Issue.record("no detail"); return }
        #expect(ratesDetail.unicodeScalars.count < 200, "\(ratesDetail.utf8.count) bytes")
        let (amount, _) = await RatesHarness().get("/v1/convert?from=USD&to=EUR&amount=1" + marks)
        #expect(amount.status == .badRequest)
    }

    @Test func symbolsSplitAndTrimAsBytes() async throws {
        let h = RatesHarness()
        for target in ["/v1/rates?symbols=USD,%CC%81EUR", "/v1/rates?symbols=USD%2C%CC%81", "/v1/rates?symbols=%20%CC%81USD",
                       "/v1/rates?symbols=%E2%84%AARW", "/v1/rates?symbols=USD%EF%BC%8CEUR"] {
            let (r, ready) = await h.get(target)
            #expect(r.status == .badRequest, "\(target)")
            #expect(ready)
        }
        let (ok, _) = await h.get("/v1/rates?symbols=%20usd%09,,eur%20")
        #expect(ok.status == .ok)
        #expect(h.upstreamCalls == 1)
    }

    @Test func ifNoneMatchComparesBytes() {
        #expect(ConditionalRequestStep.ifNoneMatch(#"W/"abc", "x""#, matches: #""abc""#))
        #expect(ConditionalRequestStep.ifNoneMatch(" * ", matches: #""abc""#))
        #expect(!ConditionalRequestStep.ifNoneMatch("*\u{301}", matches: #""abc""#))
        #expect(!ConditionalRequestStep.ifNoneMatch("\"abc\"\u{301}", matches: #""abc""#))
        #expect(!ConditionalRequestStep.ifNoneMatch("\"\u{212A}\"", matches: #""K""#))
        // ",\u{301}" is one Character, but the byte ',' still separates the tags.
        #expect(ConditionalRequestStep.ifNoneMatch("\"x\",\u{301}, \"abc\"", matches: #""abc""#))
    }

    @Test func bearerSchemeIsMatchedByBytes() {
        #expect(BearerToken.credentials(from: "Bearer token-1") == "token-1")
        #expect(BearerToken.credentials(from: "  bEaReR   token-1  ") == "token-1")
        #expect(BearerToken.credentials(from: "Bearer \u{301}token-1") == "\u{301}token-1")
        #expect(BearerToken.credentials(from: "Bearer\u{301} token-1") == nil)
        #expect(BearerToken.credentials(from: "Bearer\u{0} token-1") == nil)
        #expect(BearerToken.credentials(from: "Bearer ") == nil)
    }
}
