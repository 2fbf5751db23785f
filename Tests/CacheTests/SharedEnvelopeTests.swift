import TestSupport
import Testing
@testable import Cache

@Suite struct SharedEnvelopeTests {
    let sample = SharedEnvelope(storedAtMilliseconds: 1_700_000_000_123, expiresAtMilliseconds: 1_700_000_060_123,
                                staleUntilMilliseconds: 1_700_000_360_123, key: Array("notes:k".utf8),
                                validator: "abc123", value: Array("{\"x\":1}".utf8))

    @Test func roundTrips() throws {
        let bytes = try #require(sample.encoded)
        #expect(Array(bytes.prefix(2)) == [UInt8(ascii: "E"), 3], "the shared record format, tag E, version 3")
        // Three zigzag varints of about 1.7e12 (6 bytes each), then key, validator and value,
        // each one length byte and its bytes.
        #expect(bytes.count == 2 + 3 * 6 + (1 + 7) + (1 + 6) + (1 + 7))
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
        for (offset, byte) in [(0, UInt8(ascii: "A")), (1, 2), (1, 4), (1, 0), (1, 0xFF)] {
            var changed = bytes
            changed[offset] = byte
            #expect(SharedEnvelope(decoding: changed) == nil, "byte \(offset) = \(byte)")
        }
        var disordered = sample
        disordered.storedAtMilliseconds = disordered.expiresAtMilliseconds
        var swapped = try #require(disordered.encoded)
        swapped[2] = swapped[2] &+ 2  // stored 1 ms after expiry (zigzag: +2 is +1)
        #expect(SharedEnvelope(decoding: swapped) == nil)
        let validatorStart = 2 + 3 * 6 + (1 + 7) + 1
        #expect(bytes[validatorStart] == UInt8(ascii: "a"))
        for control: UInt8 in [0x0D, 0x0A, 0x00, 0x20, 0x7F, 0xFF] {
            var injected = bytes
            injected[validatorStart] = control
            #expect(SharedEnvelope(decoding: injected) == nil, "validator byte \(control)")
        }
        var overlong = bytes
        overlong[2 + 3 * 6] = 0x7F  // a key length past the end
        #expect(SharedEnvelope(decoding: overlong) == nil)
        var longKey = sample
        longKey.key = [UInt8](repeating: 0x6B, count: 1_024)
        var tooLong = try #require(longKey.encoded)
        tooLong.insert(0x6B, at: 2 + 3 * 6 + 2)  // 1,025 key bytes: the varint 0x80 0x08 becomes 0x81 0x08
        tooLong[2 + 3 * 6] = 0x81
        #expect(SharedEnvelope(decoding: tooLong) == nil, "a key longer than 1,024 bytes")
        var generator = SplitMix64(seed: 0xE11)
        for _ in 0..<20_000 {
            let count = Int(generator.next() % 80)
            var random = (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if count >= 2, generator.next() % 2 == 0 { random[0] = UInt8(ascii: "E"); random[1] = 3 }
            if let decoded = SharedEnvelope(decoding: random) {
                #expect(decoded.storedAtMilliseconds <= decoded.expiresAtMilliseconds)
                #expect(decoded.validator.utf8.allSatisfy(SharedEnvelope.isVisibleASCII))
                #expect(decoded.encoded == random, "what decodes encodes back to the same bytes")
            }
        }
    }
}
