import Base

/// The volume ids almanac mints for records that carry no Google id: 12 characters of
/// `[A-Za-z0-9_-]`, like Google's, stable for one ISBN-13 or one Open Library work, and
/// decodable back to it, so `GET /books/v1/volumes/{id}` can look the record up again after
/// the cache has let it go (docs/books.md "Volume ids").
///
/// The 12 characters are 9 bytes in base64url (72 bits): 4 bits of kind (1 an ISBN-13, 2 an
/// Open Library work), 44 bits of number (the ISBN-13 as a number, or the work's `OL…W`
/// number), and 24 bits of check: the top bits of an FNV-1a digest keyed with
/// `almanac volume id v1` over kind and number. The key is fixed, so every replica and
/// version mints the same id; the check is no secret, it only keeps a Google id from being
/// read as a minted one (a random 12-character id passes it about once in 2^27).
public enum VolumeID {
    /// What a minted id stands for.
    public enum Minted: Sendable, Equatable {
        case isbn(ISBN)
        /// An Open Library work, by the number in `/works/OL{n}W`.
        case work(UInt64)
    }

    static let key = "almanac volume id v1"
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Largest number that fits the 44 bits.
    static let maxNumber: UInt64 = (1 << 44) - 1

    public static func minted(for isbn: ISBN) -> String {
        // Thirteen ASCII digits: < 10^13 < 2^44.
        encode(kind: 1, number: isbn.isbn13.utf8.reduce(UInt64(0)) { $0 * 10 + UInt64($1 - 0x30) })
    }

    /// nil for a work number too large to mint (Open Library's are far below 2^44).
    public static func minted(forWork number: UInt64) -> String? {
        number <= maxNumber ? encode(kind: 2, number: number) : nil
    }

    /// What `id` was minted for, or nil when almanac did not mint it (a Google id, or noise).
    public static func decode(_ id: String) -> Minted? {
        let chars = Array(id.utf8)
        guard chars.count == 12 else { return nil }
        var bits: UInt128 = 0
        for c in chars {
            guard let value = alphabet.firstIndex(of: c) else { return nil }
            bits = bits << 6 | UInt128(value)
        }
        let kind = UInt8(truncatingIfNeeded: bits >> 68)
        let number = UInt64(truncatingIfNeeded: bits >> 24) & maxNumber
        let check = UInt32(truncatingIfNeeded: bits) & 0xFF_FFFF
        guard check == self.check(kind: kind, number: number) else { return nil }
        switch kind {
        case 1:
            var digits = String(number)
            guard digits.utf8.count <= 13 else { return nil }
            digits = String(repeating: "0", count: 13 - digits.utf8.count) + digits
            guard let isbn = try? ISBN(parsing: digits), isbn.isbn13 == digits else { return nil }
            return .isbn(isbn)
        case 2:
            return .work(number)
        default:
            return nil
        }
    }

    /// The work number in an Open Library key `/works/OL45804W`, or nil.
    public static func workNumber(fromKey key: String) -> UInt64? {
        let bytes = Array(key.utf8)
        let prefix = Array("/works/OL".utf8)
        guard bytes.count > prefix.count + 1, bytes.count <= prefix.count + 14, bytes.starts(with: prefix),
              bytes.last == UInt8(ascii: "W") else { return nil }
        let digits = bytes[prefix.count..<(bytes.count - 1)]
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let number = digits.reduce(UInt64(0)) { $0 * 10 + UInt64($1 - 0x30) }
        return number <= maxNumber ? number : nil
    }

    static func encode(kind: UInt8, number: UInt64) -> String {
        var bits = UInt128(kind) << 68 | UInt128(number & maxNumber) << 24 | UInt128(check(kind: kind, number: number))
        var out = [UInt8](repeating: 0, count: 12)
        for i in stride(from: 11, through: 0, by: -1) {
            out[i] = alphabet[Int(bits & 0x3F)]
            bits >>= 6
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func check(kind: UInt8, number: UInt64) -> UInt32 {
        var digest = ContentDigest()
        digest.combine(key)
        digest.mix(kind)
        for shift in stride(from: 56, through: 0, by: -8) { digest.mix(UInt8(truncatingIfNeeded: number >> UInt64(shift))) }
        return UInt32(truncatingIfNeeded: digest.state >> 40)
    }
}
