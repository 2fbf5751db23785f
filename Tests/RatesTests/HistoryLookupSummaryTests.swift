import Cache
import Testing
@testable import Rates

/// How the lookups of one history answer's blocks combine into its cache labels.
@Suite struct HistoryLookupSummaryTests {
    private func lookup(_ outcome: CacheOutcome, source: CacheSource = .memory) -> CacheLookup<HistoryBlock> {
        CacheLookup(value: HistoryBlock(firstDay: 0, dayCount: 1, series: [:], fetchedAt: 1, isFinal: false),
                    outcome: outcome, ageSeconds: 5, freshnessLeftSeconds: 10, validator: "v", source: source)
    }

    /// `detail=redis` for a history answer: a HIT that used at least one block from the shared
    /// cache; never a MISS or a STALE answer.
    @Test func aHitWithASharedBlockIsShared() {
        var hit = HistoryLookupSummary(finalSeconds: 0)
        hit.add(lookup(.hit))
        #expect(!hit.isShared)
        hit.add(lookup(.hit, source: .shared))
        #expect(hit.isShared)
        var miss = HistoryLookupSummary(finalSeconds: 0)
        miss.add(lookup(.hit, source: .shared))
        miss.add(lookup(.miss))
        #expect(!miss.isShared)
        var stale = HistoryLookupSummary(finalSeconds: 0)
        stale.add(lookup(.stale, source: .shared))
        #expect(!stale.isShared)
    }
}
