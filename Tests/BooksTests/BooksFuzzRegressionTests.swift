import HTTPClient
import Testing
@testable import Books

/// Inputs found with the libFuzzer targets (Fuzz/, docs/fuzzing.md), kept as unit tests.
@Suite struct BooksFuzzRegressionTests {
    /// fuzz target `google-books` (its trimmed-names invariant): Google's author and category
    /// names were only filtered for `""`, so `" "` counted as an author, and merging never filled
    /// the authors from Open Library; `" Andrew Hunt"` kept its space, unlike Open Library's names.
    @Test func googleNamesAreTrimmedAndBlankOnesDropped() throws {
        let body = #"{"items":[{"volumeInfo":{"authors":[" ","Andrew Hunt ","\u00a0"],"categories":["\t"],"#
            + #""industryIdentifiers":[{"identifier":"9780201616224"}]}}]}"#
        let book = try #require(try GoogleBooksProvider().decode(Array(body.utf8), isbn: isbn(Fixtures.pragmatic13)))
        #expect(book.authors == ["Andrew Hunt"])
        #expect(book.categories == [])

        let blank = #"{"items":[{"volumeInfo":{"authors":[" "],"industryIdentifiers":[{"identifier":"9780201616224"}]}}]}"#
        let google = try #require(try GoogleBooksProvider().decode(Array(blank.utf8), isbn: isbn(Fixtures.pragmatic13)))
        let openLibrary = try #require(try OpenLibraryProvider().decode(Array(Fixtures.openLibraryPragmatic.utf8),
                                                                        isbn: isbn(Fixtures.pragmatic13)))
        #expect(BookMerge.merge(google, filling: openLibrary).authors == ["Andrew Hunt", "David Thomas"])
    }
}
