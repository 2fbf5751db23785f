/// A validated International Standard Book Number, held in canonical form.
///
/// Every lookup, cache key and upstream URL uses `isbn13`: thirteen ASCII digits and nothing
/// else, so `0-306-40615-2`, `0306406152` and `978-0-306-40615-7` are one book, one cache entry
/// and one upstream query, and nothing a client sends can add or change upstream query
/// parameters (ISO 2108; ISBN-10 maps to ISBN-13 under the 978 "Bookland" prefix).
public struct ISBN: Sendable, Hashable, CustomStringConvertible {
    /// The thirteen digits as one number: 8 bytes, hashed and compared as one word. Caches hold
    /// an ISBN per entry (in their index and their key array), so a number rather than a
    /// 16-byte `String` is what keeps a cached book's key small (docs/cache.md "A book entry").
    private let value: UInt64

    /// Thirteen ASCII digits, starting with 978 or 979 (an inline `String`: no allocation).
    public var isbn13: String {
        String(unsafeUninitializedCapacity: 13) { buffer in
            var rest = value
            for index in stride(from: 12, through: 0, by: -1) {
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            }
            return 13
        }
    }

    /// Ten characters (the last may be `X`), or nil for 979-prefixed ISBNs, which have no
    /// ISBN-10 form.
    public var isbn10: String? { ISBN.isbn10(fromISBN13: isbn13) }

    /// Parses an ISBN-10 or ISBN-13 as people write it: hyphens and spaces anywhere, `X` (either
    /// case) only as an ISBN-10's check digit. Throws an `ISBNError` whose description says
    /// exactly what is wrong, because clients send these straight from barcodes and forms.
    ///
    /// Read one Unicode scalar at a time, never by `Character`: a digit followed by a combining
    /// mark, joiner or modifier (`1` U+0301, `1` U+FE0F U+20E3) is one grapheme cluster that
    /// compares inside `"0"..."9"` yet is not an ASCII digit. Here it is a digit followed by an
    /// unexpected U+0301, and only the ASCII scalars U+0030…U+0039 are digits (no fullwidth
    /// U+FF11, no Arabic-Indic U+0661).
    public init(parsing text: String) throws(ISBNError) {
        var digits: [UInt8] = []
        digits.reserveCapacity(13)
        var count = 0
        var xPosition: Int?
        var position = 0
        for scalar in text.unicodeScalars {
            position += 1
            let value: UInt8
            switch scalar.value {
            case 0x2D, 0x20: // "-", " "
                continue
            case 0x30...0x39: // "0"..."9"
                value = UInt8(scalar.value - 0x30)
            case 0x58, 0x78: // "X", "x"
                value = 10
            default:
                throw ISBNError(.unexpectedCharacter(scalar, position: position))
            }
            // An X followed by anything significant is not a check digit.
            if let xPosition { throw ISBNError(.checkDigitXNotLast(position: xPosition)) }
            if value == 10 { xPosition = position }
            count += 1
            if count <= 13 { digits.append(value) }
        }
        switch count {
        case 0:
            throw ISBNError(.empty)
        case 10:
            let expected = ISBN.checkDigit10(digits[0..<9])
            guard digits[9] == expected else {
                throw ISBNError(.wrongCheckDigit(expected: ISBN.character(expected)))
            }
            self.value = ISBN.number(ISBN.isbn13(fromISBN10Body: digits[0..<9]))
        case 13:
            if let xPosition { throw ISBNError(.checkDigitXNotLast(position: xPosition)) }
            let prefix = ISBN.text(digits[0..<3])
            guard prefix == "978" || prefix == "979" else { throw ISBNError(.wrongPrefix(prefix)) }
            let expected = ISBN.checkDigit13(digits[0..<12])
            guard digits[12] == expected else {
                throw ISBNError(.wrongCheckDigit(expected: ISBN.character(expected)))
            }
            self.value = ISBN.number(ISBN.text(digits[...]))
        default:
            throw ISBNError(.wrongLength(digits: count))
        }
    }

    /// Parses an ISBN from UTF-8 bytes, such as a path parameter as the router captured it:
    /// the same answers and the same errors as `init(parsing:)` on the text those bytes are
    /// (invalid UTF-8 read as U+FFFD). A well-formed ISBN (ASCII digits, `-`, space, a final
    /// `X`) is read straight from the bytes without making a `String` of the input, which is
    /// what a cached `GET /v1/books/{isbn}` hit does; anything else is handed to the text parser,
    /// which says exactly what is wrong.
    public init(parsing bytes: UnsafeBufferPointer<UInt8>) throws(ISBNError) {
        if let value = ISBN.canonicalValue(asciiBytes: bytes) {
            self.init(value: value)
        } else {
            try self.init(parsing: String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The ISBN of well-formed ASCII input (what a cached hit's path holds), read in one pass
    /// over the bytes with no `String` and no error value; nil for anything else, including
    /// input `init(parsing:)` would accept after telling a longer story (use that for the
    /// reason). Never a different answer from `init(parsing:)`.
    public init?(wellFormed bytes: UnsafeBufferPointer<UInt8>) {
        guard let value = ISBN.canonicalValue(asciiBytes: bytes) else { return nil }
        self.init(value: value)
    }

    /// An ISBN from its checked number.
    private init(value: UInt64) { self.value = value }

    /// Thirteen ASCII digits (what every initializer has checked) as their number; wrapping
    /// arithmetic, so no text could trap here.
    private static func number(_ isbn13: String) -> UInt64 {
        isbn13.utf8.reduce(0) { $0 &* 10 &+ UInt64($1 &- UInt8(ascii: "0")) }
    }

    /// The ISBN-13, as its number, of well-formed ASCII input, or nil for anything
    /// `init(parsing:)` would reject or that is not plain ASCII. One pass: the number and both
    /// check sums (ISBN-10's, and the ISBN-13 of an ISBN-10 under the 978 prefix) are
    /// accumulated as the digits go by, so nothing is stored or allocated.
    static func canonicalValue(asciiBytes bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        if bytes.count == 13, let value = plainISBN13(bytes) { return value }
        var count = 0
        var sawX = false
        var number: UInt64 = 0    // every digit so far (an X ends the input, or it is refused)
        var prefix: UInt64 = 0    // the first three digits
        var sum10 = 0             // ISBN-10 weights 10…2 over the first nine
        var sum13 = 0             // ISBN-13 weights 1, 3, 1… over the first twelve
        var bookland = 9 + 7 * 3 + 8  // the same over 978 and then the first nine (ISBN-10 → 13)
        var weight13 = 1          // the ISBN-13 weight of this digit; under 978, the other one
        var last = 0
        for byte in bytes {
            let value: Int
            if byte &- UInt8(ascii: "0") < 10 {
                value = Int(byte &- UInt8(ascii: "0"))
            } else if byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ") {
                continue
            } else if byte | 0x20 == UInt8(ascii: "x") {
                value = 10
            } else {
                return nil
            }
            guard !sawX, count < 13 else { return nil }
            sawX = value == 10
            if count < 9 {
                sum10 &+= (10 &- count) &* value
                bookland &+= (4 &- weight13) &* value
            }
            if count < 12 { sum13 &+= weight13 &* value }
            weight13 = 4 &- weight13
            if !sawX { number = number &* 10 &+ UInt64(value) }
            if count == 2 { prefix = number }
            last = value
            count &+= 1
        }
        switch count {
        case 10:
            // Only the tenth may be an X (10); the nine before it are digits.
            guard last == (11 - sum10 % 11) % 11 else { return nil }
            let first9 = sawX ? number : number / 10
            return 9_780_000_000_000 &+ first9 &* 10 &+ UInt64((10 - bookland % 10) % 10)
        case 13:
            guard !sawX, prefix == 978 || prefix == 979, last == (10 - sum13 % 10) % 10 else { return nil }
            return number
        default:
            return nil
        }
    }

    /// Thirteen plain digits, as every cached book's URL spells its ISBN: their number when it
    /// is a valid ISBN-13 (978 or 979, check digit right), else nil, and then the general
    /// reading above decides (separators, ISBN-10, refusal).
    ///
    /// Read as two overlapping eight-byte words (digits 0–7 and 5–12), eight digits at a time:
    /// a byte is a digit when its high nibble is 3 and its low nibble plus 6 stays below 16;
    /// the digits' value is folded pairwise (×10, ×100, ×10,000) and the check sum adds the
    /// bytes of masked words with one multiplication each. A fifth of the general reading's
    /// cost, for the spelling every hit on `/v1/books/{isbn}` uses.
    private static func plainISBN13(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard bytes.count == 13, let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 5, as: UInt64.self))
        let nibbles: UInt64 = 0x0F0F_0F0F_0F0F_0F0F
        func allDigits(_ word: UInt64) -> Bool {
            word & ~nibbles == 0x3030_3030_3030_3030 && ((word & nibbles) &+ 0x0606_0606_0606_0606) & ~nibbles == 0
        }
        guard allDigits(first), allDigits(last) else { return nil }
        /// The eight digits of a word (first byte most significant) as their number.
        func value(_ word: UInt64) -> UInt64 {
            var v = word & nibbles
            v = ((v &* 10) &+ (v >> 8)) & 0x00FF_00FF_00FF_00FF
            v = ((v &* 100) &+ (v >> 16)) & 0x0000_FFFF_0000_FFFF
            return ((v &* 10_000) &+ (v >> 32)) & 0xFFFF_FFFF
        }
        /// The sum of a word's bytes (at most eight digits: below 256).
        func sum(_ word: UInt64) -> Int { Int((word &* 0x0101_0101_0101_0101) >> 56) }
        let number = value(first) / 1_000 &* 100_000_000 &+ value(last)
        let prefix = number / 10_000_000_000
        // Weights 1, 3, 1, 3… over digits 0–11: every digit once, the odd ones twice more.
        // Digits 0–7 are `first`'s bytes (odd: 1, 3, 5, 7); 8–11 are `last`'s bytes 3–6 (odd: 9, 11
        // at bytes 4, 6); the check digit is `last`'s byte 7.
        let a = first & nibbles, b = last & nibbles
        let odd = sum(a & 0xFF00_FF00_FF00_FF00) + sum(b & 0x00FF_00FF_0000_0000)
        let total = sum(a) + sum((b >> 24) & 0xFFFF_FFFF) + 2 * odd
        guard prefix == 978 || prefix == 979, Int(b >> 56) == (10 - total % 10) % 10 else { return nil }
        return number
    }

    public var description: String { isbn13 }

    // MARK: - Checksums (ISO 2108)

    /// ISBN-10: weights 10…2 over the first nine digits; the check digit makes the weighted sum
    /// ≡ 0 (mod 11), and a check value of 10 is written `X`.
    static func checkDigit10<C: Collection>(_ body: C) -> UInt8 where C.Element == UInt8 {
        var sum = 0
        for (i, d) in body.enumerated() { sum += (10 - i) * Int(d) }
        return UInt8((11 - sum % 11) % 11)
    }

    /// ISBN-13 (EAN-13): weights 1,3,1,3… over the first twelve digits; the check digit makes the
    /// weighted sum ≡ 0 (mod 10).
    static func checkDigit13<C: Collection>(_ body: C) -> UInt8 where C.Element == UInt8 {
        var sum = 0
        for (i, d) in body.enumerated() { sum += (i % 2 == 0 ? 1 : 3) * Int(d) }
        return UInt8((10 - sum % 10) % 10)
    }

    static func character(_ digit: UInt8) -> Character {
        digit == 10 ? "X" : Character(Unicode.Scalar(UInt8(ascii: "0") + digit))
    }

    static func text(_ digits: ArraySlice<UInt8>) -> String {
        String(digits.map { ISBN.character($0) })
    }

    static func isbn13(fromISBN10Body body: ArraySlice<UInt8>) -> String {
        let digits: [UInt8] = [9, 7, 8] + body
        return text((digits + [checkDigit13(digits)])[...])
    }

    /// `isbn13` is always thirteen ASCII digits (only `init(parsing:)` makes one); the
    /// subtraction wraps rather than traps all the same, so no text can stop the process here.
    static func isbn10(fromISBN13 isbn13: String) -> String? {
        guard isbn13.utf8.starts(with: "978".utf8) else { return nil }
        let body = isbn13.utf8.dropFirst(3).prefix(9).map { $0 &- UInt8(ascii: "0") }
        return text((body + [checkDigit10(body)])[...])
    }
}

/// Why a string is not an ISBN, in words a client can act on (the 400 problem's `detail`).
public struct ISBNError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        case empty
        /// `position` is 1-based, counted in Unicode scalars of the input as sent (after
        /// percent-decoding), so a combining mark has a position of its own.
        case unexpectedCharacter(Unicode.Scalar, position: Int)
        /// An `X` anywhere but as the last character of a ten-digit ISBN.
        case checkDigitXNotLast(position: Int)
        case wrongLength(digits: Int)
        case wrongPrefix(String)
        case wrongCheckDigit(expected: Character)
    }

    public var reason: Reason

    public init(_ reason: Reason) { self.reason = reason }

    public var description: String {
        switch reason {
        case .empty:
            return "ISBN is empty"
        case let .unexpectedCharacter(c, position):
            return "unexpected character \(ISBNError.show(c)) at position \(position)"
        case let .checkDigitXNotLast(position):
            return "'X' at position \(position) is only allowed as the check digit (last character) of an ISBN-10"
        case let .wrongLength(digits):
            return "ISBN must have 10 or 13 digits, got \(digits)"
        case let .wrongPrefix(prefix):
            return "ISBN-13 must start with 978 or 979, got \(prefix)"
        case let .wrongCheckDigit(expected):
            return "check digit should be \(expected)"
        }
    }

    /// Printable ASCII as `'c'`; anything else as `U+XXXX`, so control characters, combining
    /// marks and lookalikes (a full-width digit, a non-breaking space) are visible in the message.
    private static func show(_ scalar: Unicode.Scalar) -> String {
        if scalar.value > 0x20, scalar.value < 0x7F { return "'\(Character(scalar))'" }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.utf8.count)) + hex
    }
}
