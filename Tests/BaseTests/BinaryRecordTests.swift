import Base
import TestSupport
import Testing

@Suite struct BinaryRecordTests {
    static let format = BinaryRecordFormat(tag: UInt8(ascii: "T"), version: 3)

    static func record(_ fields: (inout BinaryRecordWriter) -> Void) -> [UInt8] {
        var writer = BinaryRecordWriter(format: format)
        fields(&writer)
        return writer.bytes
    }

    static func failure<Value>(_ bytes: [UInt8], _ body: (inout BinaryRecordReader) throws(BinaryRecordError) -> Value) -> BinaryRecordError? {
        if case let .failure(error) = BinaryRecordReader.decode(bytes, format: format, body) { return error }
        return nil
    }

    /// The layout other replicas depend on, byte for byte: header, LEB128, zigzag, length
    /// prefixes, optional flags, maps in key byte order.
    @Test func knownBytes() {
        #expect(Self.record { _ in } == [0x54, 3])
        #expect(Self.record { $0.write(UInt64(0)); $0.write(UInt64(127)); $0.write(UInt64(128)); $0.write(UInt64(300)) }
            == [0x54, 3, 0x00, 0x7F, 0x80, 0x01, 0xAC, 0x02])
        #expect(Self.record { $0.write(Int64(0)); $0.write(Int64(-1)); $0.write(Int64(1)); $0.write(Int64(-64)); $0.write(Int64(64)) }
            == [0x54, 3, 0, 1, 2, 0x7F, 0x80, 0x01])
        #expect(Self.record { $0.write(UInt64.max) } == [0x54, 3] + [UInt8](repeating: 0xFF, count: 9) + [0x01])
        #expect(Self.record { $0.write("€") } == [0x54, 3, 3, 0xE2, 0x82, 0xAC])
        #expect(Self.record { $0.write(optional: nil as String?); $0.write(optional: "a"); $0.write(true) }
            == [0x54, 3, 0, 1, 1, 0x61, 1])
        #expect(Self.record { $0.write(bytes: [0, 0xFF]) } == [0x54, 3, 2, 0, 0xFF])
        // "b" < "é" (0xC3…) < "😀" (0xF0…) by bytes, whatever the dictionary's order.
        #expect(Self.record { $0.writeMap(["😀": 3, "b": 1, "é": 2]) { $0.write(Int64($1)) } }
            == [0x54, 3, 3, 1, 0x62, 2, 2, 0xC3, 0xA9, 4, 4, 0xF0, 0x9F, 0x98, 0x80, 6])
    }

    @Test func integersRoundTripAtTheirEdges() {
        let unsigned: [UInt64] = [0, 1, 127, 128, 16_383, 16_384, UInt64(UInt32.max), UInt64(Int64.max), UInt64.max - 1, UInt64.max]
        let signed: [Int64] = [0, 1, -1, 63, -64, 64, -65, Int64(Int32.min), Int64.max, Int64.min, Int64.min + 1]
        let bytes = Self.record { writer in
            for value in unsigned { writer.write(value) }
            for value in signed { writer.write(value) }
        }
        let read = BinaryRecordReader.read(bytes, format: Self.format) { reader throws(BinaryRecordError) in
            (try unsigned.map { _ throws(BinaryRecordError) in try reader.readUInt64() },
             try signed.map { _ throws(BinaryRecordError) in try reader.readInt64() })
        }
        #expect(read?.0 == unsigned)
        #expect(read?.1 == signed)
    }

    @Test func everyFieldKindRoundTrips() {
        let map = ["z": "last", "": "empty key", "e\u{301}": "decomposed", "\u{0}": "nul"]
        let bytes = Self.record { writer in
            writer.write(-42)
            writer.write(false)
            writer.write("zł ₿ 🏳️‍🌈 \u{202E}abc")
            writer.write(bytes: [0xFF, 0xFE, 0, 0x80])
            writer.write(optional: "x")
            writer.write(optional: nil as String?)
            writer.write(optional: -7 as Int?)
            writer.write(optional: nil as Int?)
            writer.write(["a", "", "é"])
            writer.writeMap(map) { $0.write($1) }
            writer.writeMap([String: Int]()) { $0.write($1) }
        }
        let read = BinaryRecordReader.read(bytes, format: Self.format) { reader throws(BinaryRecordError) in
            #expect(try reader.readInt() == -42)
            #expect(try reader.readBool() == false)
            #expect(try reader.readString() == "zł ₿ 🏳️‍🌈 \u{202E}abc")
            #expect(try reader.readBytes() == [0xFF, 0xFE, 0, 0x80])
            #expect(try reader.readOptionalString() == "x")
            #expect(try reader.readOptionalString() == nil)
            #expect(try reader.readOptionalInt() == -7)
            #expect(try reader.readOptionalInt() == nil)
            #expect(try reader.readStrings() == ["a", "", "é"])
            #expect(try reader.readMap { reader throws(BinaryRecordError) in try reader.readString() } == map)
            #expect(try reader.readMap { reader throws(BinaryRecordError) in try reader.readInt() }.isEmpty)
            return true
        }
        #expect(read == true)
    }

    @Test func anotherTagOrVersionIsRefused() {
        let bytes = Self.record { $0.write(UInt64(1)) }
        let readOne = { (reader: inout BinaryRecordReader) throws(BinaryRecordError) in try reader.readUInt64() }
        #expect(BinaryRecordReader.read(bytes, format: Self.format, readOne) == 1)
        #expect(BinaryRecordReader.read(bytes, format: BinaryRecordFormat(tag: 0x54, version: 4), readOne) == nil)
        #expect(BinaryRecordReader.read(bytes, format: BinaryRecordFormat(tag: 0x55, version: 3), readOne) == nil)
        #expect(Self.failure([0x54, 2, 1], readOne) == BinaryRecordError(.wrongFormat(tag: 0x54, version: 2), at: 0))
        #expect(Self.failure([0x54], readOne) == BinaryRecordError(.truncated, at: 1))
        #expect(Self.failure([], readOne) == BinaryRecordError(.truncated, at: 0))
    }

    @Test func onlyTheShortestIntegerFormIsRead() {
        let readOne = { (reader: inout BinaryRecordReader) throws(BinaryRecordError) in try reader.readUInt64() }
        // 0 as two bytes, 1 as three: overlong.
        #expect(Self.failure([0x54, 3, 0x80, 0x00], readOne)?.reason == .badInteger)
        #expect(Self.failure([0x54, 3, 0x81, 0x80, 0x00], readOne)?.reason == .badInteger)
        // A tenth byte above 1 would pass bit 63; an eleventh byte is never valid.
        #expect(Self.failure([0x54, 3] + [UInt8](repeating: 0xFF, count: 9) + [0x02], readOne)?.reason == .badInteger)
        #expect(Self.failure([0x54, 3] + [UInt8](repeating: 0xFF, count: 10) + [0x01], readOne)?.reason == .badInteger)
        // Continuation bit on the last byte: the bytes end inside the varint.
        #expect(Self.failure([0x54, 3, 0x80], readOne)?.reason == .truncated)
        // An Int64 outside Int's range cannot occur on 64-bit platforms; booleans are 0 or 1.
        #expect(Self.failure([0x54, 3, 2]) { reader throws(BinaryRecordError) in try reader.readBool() }?.reason == .badBool)
    }

    /// A length or count of 2⁶⁴−1 with nothing behind it fails at once, before any allocation.
    @Test func hugeDeclaredLengthsFailWithoutAllocating() {
        let huge = Self.record { $0.write(UInt64.max) }
        #expect(Self.failure(huge) { reader throws(BinaryRecordError) in try reader.readBytes() } == BinaryRecordError(.truncated, at: 2))
        #expect(Self.failure(huge) { reader throws(BinaryRecordError) in try reader.readString() }?.reason == .truncated)
        #expect(Self.failure(huge) { reader throws(BinaryRecordError) in try reader.readStrings() }?.reason == .truncated)
        #expect(Self.failure(huge) { reader throws(BinaryRecordError) in
            try reader.readMap { reader throws(BinaryRecordError) in try reader.readInt() }
        }?.reason == .truncated)
        // A length one past the end.
        #expect(Self.failure([0x54, 3, 3, 0x61, 0x62]) { reader throws(BinaryRecordError) in try reader.readString() }?.reason == .truncated)
    }

    @Test func invalidUTF8IsRefusedNotRepaired() {
        let read = { (reader: inout BinaryRecordReader) throws(BinaryRecordError) in try reader.readString() }
        for bad: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xE2, 0x82]] {
            #expect(Self.failure([0x54, 3, UInt8(bad.count)] + bad, read) == BinaryRecordError(.invalidUTF8, at: 2))
        }
    }

    @Test func mapKeysMustAscendAndDiffer() {
        let read = { (reader: inout BinaryRecordReader) throws(BinaryRecordError) in
            try reader.readMap { reader throws(BinaryRecordError) in try reader.readBool() }
        }
        let ba: [UInt8] = [0x54, 3, 2, 1, 0x62, 1, 1, 0x61, 0]
        #expect(Self.failure(ba, read) == BinaryRecordError(.unorderedKeys, at: 6))
        let twice: [UInt8] = [0x54, 3, 2, 1, 0x61, 1, 1, 0x61, 0]
        #expect(Self.failure(twice, read)?.reason == .unorderedKeys)
        // "e" + U+0301 and "é" ascend by bytes but are one Swift string: one would vanish.
        let equivalent = Self.record { writer in
            writer.write(UInt64(2))
            writer.write("e\u{301}"); writer.write(true)
            writer.write("é"); writer.write(false)
        }
        #expect(Self.failure(equivalent, read)?.reason == .unorderedKeys)
    }

    @Test func trailingBytesAndCallerChecksAreFailures() {
        #expect(Self.failure([0x54, 3, 1, 0]) { reader throws(BinaryRecordError) in try reader.readUInt64() }
            == BinaryRecordError(.trailingBytes, at: 3))
        #expect(Self.failure([0x54, 3, 5]) { reader throws(BinaryRecordError) -> UInt64 in
            let value = try reader.readUInt64()
            guard value < 5 else { throw reader.invalid("small number") }
            return value
        } == BinaryRecordError(.invalidValue("small number"), at: 3))
    }

    /// Random bytes behind a valid header, read as a mix of every field kind: never a trap,
    /// and whatever reads fully writes back the same bytes (one form per value).
    @Test func randomBytesNeverTrapAndAcceptedBytesAreCanonical() {
        var random = SplitMix64(seed: 0xB1_4A_27)
        var accepted = 0
        for _ in 0..<20_000 {
            let input = [0x54, 3] + random.bytes(maxCount: 24)
            let rewritten = BinaryRecordReader.read(input, format: Self.format) { reader throws(BinaryRecordError) -> [UInt8] in
                var writer = BinaryRecordWriter(format: Self.format)
                while reader.remaining > 0 {
                    let kind = try reader.readUInt64()
                    guard kind < 6 else { throw reader.invalid("field kind") }
                    switch kind {
                    case 0: writer.write(UInt64(0)); writer.write(try reader.readInt64())
                    case 1: writer.write(UInt64(1)); writer.write(try reader.readString())
                    case 2: writer.write(UInt64(2)); writer.write(bytes: try reader.readBytes())
                    case 3: writer.write(UInt64(3)); writer.write(try reader.readBool())
                    case 4: writer.write(UInt64(4)); writer.write(optional: try reader.readOptionalString())
                    default:
                        writer.write(UInt64(5))
                        writer.writeMap(try reader.readMap { reader throws(BinaryRecordError) in try reader.readUInt64() }) { $0.write($1) }
                    }
                }
                return writer.bytes
            }
            if let rewritten {
                accepted += 1
                #expect(rewritten == input)
            }
        }
        #expect(accepted > 100)
    }
}
