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
            HistoryBlock(firstDay: -719_528, dayCount: 1, series: ["X": [Int64.max]], fetchedAt: Int64.min, isFinal: true),
            // Rows need not match dayCount (the codec carries what it is given).
            HistoryBlock(firstDay: 7, dayCount: 3, series: ["₿": [-1, Int64.min], "zł": []], fetchedAt: 9, isFinal: false),
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
                    random.oneIn(5) ? 0 : Int64(bitPattern: random.next()) >> Int64(random.next() % 64)
                }
            }
            let block = HistoryBlock(firstDay: Int64(bitPattern: random.next()) >> 30, dayCount: days, series: series,
                                     fetchedAt: Int64(bitPattern: random.next()), isFinal: random.oneIn(2))
            let findings = SharedCacheValueProbe.roundTripFindings(block)
            #expect(findings.isEmpty, "block \(n): \(findings)")
        }
        #expect(SharedCacheValueProbe.damageFindings(Self.block, cases: 5_000, random: &random).isEmpty)
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
