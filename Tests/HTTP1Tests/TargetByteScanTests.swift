import Testing
@testable import HTTP1

/// The request-target is checked eight bytes at a time (`ParseBytes.checkedTargetBytes`) and the
/// Host's reg-name bytes by one mask test (`HostValidator.isRegNameByte`): each must answer what
/// the byte-by-byte rule answers (visible ASCII but `#`, and the first `?`; unreserved or a
/// sub-delim but the comma), for every byte value at every position and length.
@Suite struct TargetByteScanTests {
    /// The byte-by-byte rule: nil when a byte is refused, else the first `?` (-1: none).
    static func reference(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.allSatisfy({ ParseByte.isVisible($0) && $0 != 0x23 }) else { return nil }
        return bytes.firstIndex(of: UInt8(ascii: "?")).map { $0 - bytes.startIndex } ?? -1
    }

    static func scan(_ bytes: [UInt8], from start: Int, to end: Int) -> Int? {
        bytes.withUnsafeBufferPointer { ParseBytes($0, start, end).checkedTargetBytes() }
    }

    @Test func everyBytePlacedEverywhere() {
        forEveryBytePlacedEverywhere { bytes, start, end, label in
            let got = Self.scan(bytes, from: start, to: end)
            let expected = Self.reference(bytes[start..<end])
            #expect(got == expected, Comment(rawValue: label))
            return got == expected
        }
    }

    @Test func firstQuestionMarkAmongSeveral() {
        for length in 1...24 {
            for first in 0..<length {
                var bytes = [UInt8](repeating: UInt8(ascii: "/"), count: length)
                for k in stride(from: first, to: length, by: 3) { bytes[k] = UInt8(ascii: "?") }
                #expect(Self.scan(bytes, from: 0, to: length) == first, "length \(length), first at \(first)")
            }
        }
    }

    @Test func regNameMaskIsThePredicates() {
        for byte in 0...255 {
            let b = UInt8(byte)
            let expected = HostValidator.isUnreserved(b) || (HostValidator.isSubDelim(b) && b != ParseByte.comma)
            #expect(HostValidator.isRegNameByte(b) == expected, "byte \(byte)")
        }
    }
}
