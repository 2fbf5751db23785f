import Base
import Cache
import TestSupport
import Testing
@testable import Rates

@Suite struct HistoryBlockSharedCacheTests {
    static let block = HistoryBlock(
        span: 20_000...20_009,
        values: ["USD": [20_000: 9_123_456_000_000, 20_005: 1], "EUR": [20_009: 90_498_000], "": [:]],
        fetchedAt: 1_728_000_123, isFinal: false)

    @Test func blocksRoundTripWithTheirValidator() {
        let blocks = [
            Self.block,
            HistoryBlock(firstDay: 0, dayCount: 0, series: [:], fetchedAt: 0),
            // The first and last days of the years 0000–9999, the largest fixed-point value.
            HistoryBlock(firstDay: -719_528, dayCount: 1, series: ["X": [Int64.max]],
                         fetchedAt: TimestampText.writableRange.lowerBound, isFinal: true),
            HistoryBlock(firstDay: 2_932_896, dayCount: 1, series: ["₿": [0], "zł": [1]],
                         fetchedAt: TimestampText.writableRange.upperBound, isFinal: false),
        ]
        for block in blocks {
            #expect(SharedCacheValueProbe.roundTripFindings(block).isEmpty, "\(block)")
        }
        #expect(HistoryBlock(sharedCacheBytes: Self.block.sharedCacheBytes)?.value("USD", day: 20_005) == 1)
    }

    @Test func randomBlocksRoundTripAndDamageNeverTraps() {
        var random = SplitMix64(seed: 0x41_57_04)
        for n in 0..<300 {
            var series: [String: [Int64]] = [:]
            let days = Int(random.next() % 400)
            for _ in 0..<Int(random.next() % 5) {
                series[random.text(maxScalars: 4)] = (0..<days).map { _ in
                    random.oneIn(5) ? 0 : Int64(random.next() >> 1) >> Int64(random.next() % 63)
                }
            }
            let block = HistoryBlock(firstDay: Int64(random.next() % 3_000_000) - 700_000, dayCount: days, series: series,
                                     fetchedAt: Int64(random.next() % 100_000_000_000) - 50_000_000_000, isFinal: random.oneIn(2))
            let findings = SharedCacheValueProbe.roundTripFindings(block)
            #expect(findings.isEmpty, "block \(n): \(findings)")
        }
        #expect(SharedCacheValueProbe.damageFindings(Self.block, cases: 5_000, random: &random).isEmpty)
    }

    /// The history code indexes rows by day without checks of its own: rows shorter or longer
    /// than the day count, negative values, days or times outside the years 0000–9999 are refused.
    @Test func blocksNoServiceMakesAreRefused() {
        // `HistoryBlock.init` checks nothing, so its writer makes the records no service would.
        func record(firstDay: Int64 = 20_000, dayCount: Int = 2, fetchedAt: Int64 = 1, rows: [String: [Int64]] = ["USD": [1, 0]]) -> [UInt8] {
            HistoryBlock(firstDay: firstDay, dayCount: dayCount, series: rows, fetchedAt: fetchedAt).sharedCacheBytes
        }
        #expect(HistoryBlock(sharedCacheBytes: record()) != nil)
        #expect(HistoryBlock(sharedCacheBytes: record(rows: ["USD": [1]])) == nil)
        #expect(HistoryBlock(sharedCacheBytes: record(rows: ["USD": [1, 2, 3]])) == nil)
        #expect(HistoryBlock(sharedCacheBytes: record(rows: ["USD": [1, -1]])) == nil)
        #expect(HistoryBlock(sharedCacheBytes: record(dayCount: -1, rows: [:])) == nil)
        #expect(HistoryBlock(sharedCacheBytes: record(firstDay: 2_932_896, dayCount: 1, rows: [:])) != nil)
        #expect(HistoryBlock(sharedCacheBytes: record(firstDay: 2_932_896, dayCount: 2, rows: [:])) == nil)
        #expect(HistoryBlock(sharedCacheBytes: record(firstDay: -719_529, dayCount: 0, rows: [:])) == nil)
        #expect(HistoryBlock(sharedCacheBytes: record(firstDay: Int64.max, dayCount: 1, rows: [:])) == nil)
        // A day count whose cost would overflow (no `HistoryBlock` can even be made with it).
        var huge = BinaryRecordWriter(format: HistoryBlock.sharedFormat)
        huge.write(Int64(0))
        huge.write(Int.max)
        #expect(HistoryBlock(sharedCacheBytes: huge.bytes) == nil)
        #expect(HistoryBlock(sharedCacheBytes: record(fetchedAt: Int64.min)) == nil)
        var wrongVersion = Self.block.sharedCacheBytes
        wrongVersion[1] = 9
        #expect(HistoryBlock(sharedCacheBytes: wrongVersion) == nil)
    }

    @Test func keysAreShortPrintableAndDistinct() {
        let keys = [
            HistoryBlockKey(provider: "bitstamp", series: "USD", index: 20, through: 20_453),
            HistoryBlockKey(provider: "frankfurter", series: "", index: 56, through: 20_453),
            HistoryBlockKey(provider: "coinbase-exchange", series: "EUR", index: -3, through: -1),
            // Separators and non-ASCII inside the parts cannot run into the next part.
            HistoryBlockKey(provider: "a:b", series: "", index: 1, through: 2),
            HistoryBlockKey(provider: "a", series: "b:", index: 1, through: 2),
            HistoryBlockKey(provider: "a", series: "b%3A", index: 1, through: 2),
            HistoryBlockKey(provider: "zł", series: " \n", index: Int64.min, through: Int64.max),
        ]
        let bytes = keys.map(\.sharedCacheKeyBytes)
        #expect(String(decoding: bytes[0], as: UTF8.self) == "bitstamp:USD:20:20453")
        #expect(String(decoding: bytes[1], as: UTF8.self) == "frankfurter::56:20453")
        #expect(String(decoding: bytes[2], as: UTF8.self) == "coinbase-exchange:EUR:-3:-1")
        #expect(String(decoding: bytes[3], as: UTF8.self) == "a%3Ab::1:2")
        #expect(String(decoding: bytes[6], as: UTF8.self) == "z%C5%82:%20%0A:-9223372036854775808:9223372036854775807")
        #expect(Set(bytes).count == keys.count)
        for key in bytes {
            #expect(key.allSatisfy { $0 > 0x20 && $0 < 0x7F })
        }
    }
}

/// A history block read from the shared layer is served only under a key whose last day is
/// its own (the key's `through`).
@Suite struct HistoryBlockBelongsTests {
    @Test func aBlockBelongsToTheKeyEndingOnItsLastDay() {
        let block = HistoryBlock(span: 20_000...20_009, values: ["USD": [20_000: 1]], fetchedAt: 1_728_000_123)
        let key = HistoryBlockKey(provider: "bitstamp", series: "USD", index: 20, through: 20_009)
        #expect(block.belongs(toSharedCacheKey: key.sharedCacheKeyBytes))
        var later = key
        later.through = 20_010
        #expect(!block.belongs(toSharedCacheKey: later.sharedCacheKeyBytes))
        #expect(!block.belongs(toSharedCacheKey: Array("bitstamp:USD:20:020009".utf8)), "only the canonical digits")
        #expect(!block.belongs(toSharedCacheKey: Array("no-colon".utf8)))
        #expect(!HistoryBlock(firstDay: 0, dayCount: 0, series: [:], fetchedAt: 0).belongs(toSharedCacheKey: Array("a::0:0".utf8)))
    }
}
