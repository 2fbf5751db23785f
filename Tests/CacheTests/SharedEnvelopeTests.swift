import TestSupport
import Testing
@testable import Cache

@Suite struct SharedEnvelopeTests {
    let sample = SharedEnvelope(storedAtMilliseconds: 1_700_000_000_123, expiresAtMilliseconds: 1_700_000_060_123,
                                staleUntilMilliseconds: 1_700_000_360_123, validator: "abc123", value: Array("{\"x\":1}".utf8))

    @Test func roundTrips() throws {
        let bytes = try #require(sample.encoded)
        #expect(Array(bytes.prefix(3)) == [0x41, 0x43, 1])
        #expect(bytes.count == 29 + 6 + 7)
        #expect(SharedEnvelope(decoding: bytes) == sample)
        var empty = sample
        empty.value = []
        empty.validator = ""
        #expect(SharedEnvelope(decoding: try #require(empty.encoded)) == empty)
        var negative = sample
        negative.storedAtMilliseconds = -5
        #expect(SharedEnvelope(decoding: try #require(negative.encoded)) == negative)
    }

    @Test func refusesWhatItCannotWriteFaithfully() {
        var long = sample
        long.validator = String(repeating: "v", count: 1_025)
        #expect(long.encoded == nil)
        var disordered = sample
        disordered.expiresAtMilliseconds = disordered.staleUntilMilliseconds + 1
        #expect(disordered.encoded == nil)
    }

    /// Every prefix, another version or magic, inconsistent times, a validator that is not UTF-8
    /// or longer than the bytes: absent, never a trap.
    @Test func hostileBytesAreAbsent() throws {
        let bytes = try #require(sample.encoded)
        for cut in 0..<(29 + 6) { #expect(SharedEnvelope(decoding: Array(bytes.prefix(cut))) == nil, "prefix \(cut)") }
        for (offset, byte) in [(0, UInt8(0x42)), (1, 0x00), (2, 2), (2, 0), (2, 0xFF)] {
            var changed = bytes
            changed[offset] = byte
            #expect(SharedEnvelope(decoding: changed) == nil, "byte \(offset) = \(byte)")
        }
        var swapped = bytes
        swapped[3] = 0x7F  // stored after expiry
        #expect(SharedEnvelope(decoding: swapped) == nil)
        var badUTF8 = bytes
        badUTF8[29] = 0xFF
        #expect(SharedEnvelope(decoding: badUTF8) == nil)
        var overlong = bytes
        overlong[27] = 0xFF
        overlong[28] = 0xFF
        #expect(SharedEnvelope(decoding: overlong) == nil)
        var generator = SplitMix64(seed: 0xE11)
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 80)
            var random = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if count >= 3, generator.next() % 2 == 0 { random[0] = 0x41; random[1] = 0x43; random[2] = 1 }
            if let decoded = SharedEnvelope(decoding: random) {
                #expect(decoded.storedAtMilliseconds <= decoded.expiresAtMilliseconds)
                #expect(decoded.encoded == random, "what decodes encodes back to the same bytes")
            }
        }
    }
}
