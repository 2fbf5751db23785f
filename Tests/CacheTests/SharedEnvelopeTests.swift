import TestSupport
import Testing
@testable import Cache

@Suite struct SharedEnvelopeTests {
    let sample = SharedEnvelope(storedAtMilliseconds: 1_700_000_000_123, expiresAtMilliseconds: 1_700_000_060_123,
                                staleUntilMilliseconds: 1_700_000_360_123, key: Array("notes:k".utf8),
                                validator: "abc123", value: Array("{\"x\":1}".utf8))

    @Test func roundTrips() throws {
        let bytes = try #require(sample.encoded)
        #expect(Array(bytes.prefix(3)) == [0x41, 0x43, 2])
        #expect(bytes.count == 29 + 7 + 2 + 6 + 4 + 7)
        #expect(SharedEnvelope(decoding: bytes) == sample)
        var empty = sample
        empty.value = []
        empty.validator = ""
        empty.key = []
        #expect(SharedEnvelope(decoding: try #require(empty.encoded)) == empty)
        var negative = sample
        negative.storedAtMilliseconds = -5
        #expect(SharedEnvelope(decoding: try #require(negative.encoded)) == negative)
    }

    @Test func refusesWhatItCannotWriteFaithfully() {
        var long = sample
        long.validator = String(repeating: "v", count: 1_025)
        #expect(long.encoded == nil)
        var longKey = sample
        longKey.key = [UInt8](repeating: 0x6B, count: 1_025)
        #expect(longKey.encoded == nil)
        var disordered = sample
        disordered.expiresAtMilliseconds = disordered.staleUntilMilliseconds + 1
        #expect(disordered.encoded == nil)
        for injected in ["x\"\r\nSet-Cookie: a=b", "a b", "é", "\u{0}"] {
            var hostile = sample
            hostile.validator = injected
            #expect(hostile.encoded == nil, "validator \(injected.debugDescription)")
        }
    }

    /// Every prefix, another version or magic, inconsistent times, a validator with a control
    /// byte or longer than the bytes, a byte more or less than the value length says: absent,
    /// never a trap.
    @Test func hostileBytesAreAbsent() throws {
        let bytes = try #require(sample.encoded)
        for cut in 0..<bytes.count { #expect(SharedEnvelope(decoding: Array(bytes.prefix(cut))) == nil, "prefix \(cut)") }
        #expect(SharedEnvelope(decoding: bytes + [0]) == nil, "a byte after the end")
        for (offset, byte) in [(0, UInt8(0x42)), (1, 0x00), (2, 1), (2, 3), (2, 0), (2, 0xFF)] {
            var changed = bytes
            changed[offset] = byte
            #expect(SharedEnvelope(decoding: changed) == nil, "byte \(offset) = \(byte)")
        }
        var swapped = bytes
        swapped[3] = 0x7F  // stored after expiry
        #expect(SharedEnvelope(decoding: swapped) == nil)
        let validatorStart = 29 + 7 + 2
        for control: UInt8 in [0x0D, 0x0A, 0x00, 0x20, 0x7F, 0xFF] {
            var injected = bytes
            injected[validatorStart] = control
            #expect(SharedEnvelope(decoding: injected) == nil, "validator byte \(control)")
        }
        var overlong = bytes
        overlong[27] = 0xFF
        overlong[28] = 0xFF
        #expect(SharedEnvelope(decoding: overlong) == nil)
        var generator = SplitMix64(seed: 0xE11)
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 80)
            var random = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if count >= 3, generator.next() % 2 == 0 { random[0] = 0x41; random[1] = 0x43; random[2] = 2 }
            if let decoded = SharedEnvelope(decoding: random) {
                #expect(decoded.storedAtMilliseconds <= decoded.expiresAtMilliseconds)
                #expect(decoded.validator.utf8.allSatisfy(SharedEnvelope.isVisibleASCII))
                #expect(decoded.encoded == random, "what decodes encodes back to the same bytes")
            }
        }
    }
}
