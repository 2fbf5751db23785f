import TestSupport
import HTTPClient
import Testing
@testable import Rates

/// Deterministic mutation testing of the decoders: thousands of corrupted fixtures must each
/// either decode or fail with a `.malformed` error naming the provider — never trap.
@Suite struct DecoderRobustnessTests {
    static let alphabet = Array(#"{}[]":,.-+eE0123456789 \u&#;abcXYZ"#.utf8) + [0x00, 0xFF, 0xC3]

    func mutate(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var out = bytes
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            guard !out.isEmpty else { break }
            let i = Int.random(in: 0..<out.count, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: out[i] = DecoderRobustnessTests.alphabet.randomElement(using: &rng)!
            case 1: out.remove(at: i)
            case 2: out.insert(DecoderRobustnessTests.alphabet.randomElement(using: &rng)!, at: i)
            default: out = Array(out[..<i])
            }
        }
        return out
    }

    @Test(arguments: ["coinbase", "coingecko", "coindesk"])
    func corruptedBodiesNeverTrap(_ name: String) {
        let fixture: String
        let decode: ([UInt8]) throws -> RateTable
        switch name {
        case "coinbase":
            fixture = Fixtures.coinbase
            decode = { try CoinbaseProvider().decode(try ProviderFetch.parse($0, provider: "coinbase"), fetchedAt: 0) }
        case "coingecko":
            fixture = Fixtures.coingecko
            decode = { try CoinGeckoProvider().decode(try ProviderFetch.parse($0, provider: "coingecko"), fetchedAt: 0) }
        default:
            fixture = Fixtures.coindesk
            decode = { try CoinDeskProvider().decode(try ProviderFetch.parse($0, provider: "coindesk")) }
        }
        var rng = SplitMix64(seed: 0xA1_2A_AC)
        var decoded = 0, rejected = 0
        for _ in 0..<3000 {
            let body = mutate(Array(fixture.utf8), &rng)
            do {
                let table = try decode(body)
                #expect(table.rate("BTC") == 1)
                #expect(table.rates.values.allSatisfy { $0 > 0 })
                decoded += 1
            } catch {
                let upstream = error as? UpstreamError
                #expect(upstream?.kind == .malformed && upstream?.provider == name, "\(error)")
                rejected += 1
            }
        }
        #expect(decoded + rejected == 3000)
        #expect(decoded > 0 && rejected > 0)
    }
}
