import HTTPClientTestSupport
import Testing
import TestSupport

/// Fuzz seeds that restate a shared upstream fixture are the fixture's bytes exactly: a change
/// to the fixture without its seed (or the other way round) fails here.
@Suite struct UpstreamFixtureSeedTests {
    @Test func theGoogleBooksCorpusHoldsTheSharedFixtures() {
        let seeds: [(name: String, bytes: [UInt8])] = [
            ("fixture-not-found.json", Array(UpstreamFixtures.googleNotFound.utf8)),
        ]
        #expect(FuzzSeeds.findings(target: "google-books", seeds: seeds) == [])
    }
}
