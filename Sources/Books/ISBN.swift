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
        if let isbn13 = ISBN.canonicalISBN13(asciiBytes: bytes) {
            self.init(canonical: isbn13)
        } else {
            try self.init(parsing: String(decoding: bytes, as: UTF8.self))
        }
    }

    /// An ISBN already known to be thirteen ASCII digits with a valid check digit.
    private init(canonical isbn13: String) { self.value = ISBN.number(isbn13) }

    /// Thirteen ASCII digits (what every initializer has checked) as their number; wrapping
    /// arithmetic, so no text could trap here.
    private static func number(_ isbn13: String) -> UInt64 {
        isbn13.utf8.reduce(0) { $0 &* 10 &+ UInt64($1 &- UInt8(ascii: "0")) }
    }

    /// The ISBN-13 of well-formed ASCII input, or nil for anything `init(parsing:)` would reject
    /// or that is not plain ASCII. Digits are kept on the stack; only the answer becomes a
    /// `String` (thirteen bytes: stored inline, no allocation).
    static func canonicalISBN13(asciiBytes bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var digits: (UInt64, UInt64) = (0, 0) // up to 13 digit values, one per byte
        var count = 0
        var sawX = false
        for byte in bytes {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: " "): continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "X"), UInt8(ascii: "x"): value = 10
            default: return nil
            }
            guard !sawX, count < 13 else { return nil }
            sawX = value == 10
            withUnsafeMutableBytes(of: &digits) { $0[count] = value }
            count += 1
        }
        // Only the last of ten digits may be an X (10), and check digits 13 are 0…9: the text
        // below is digits only.
        return withUnsafeBytes(of: digits) { raw -> String? in
            let values = raw.bindMemory(to: UInt8.self)
            switch count {
            case 10:
                guard values[9] == checkDigit10(values[0..<9]) else { return nil }
                var isbn13: [UInt8] = [9, 7, 8] + values[0..<9]
                isbn13.append(checkDigit13(isbn13))
                return digitsText(isbn13)
            case 13:
                guard !sawX, values[0] == 9, values[1] == 7, values[2] == 8 || values[2] == 9,
                      values[12] == checkDigit13(values[0..<12]) else { return nil }
                return digitsText(values[0..<13])
            default:
                return nil
            }
        }
    }

    /// Digit values 0…9 as their ASCII text.
    static func digitsText<C: Collection<UInt8>>(_ values: C) -> String {
        String(unsafeUninitializedCapacity: values.count) { buffer in
            for (index, value) in values.enumerated() { buffer[index] = UInt8(ascii: "0") &+ value }
            return values.count
        }
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
