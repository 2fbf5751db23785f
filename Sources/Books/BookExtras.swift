import Base

/// What a found book's cache entry keeps beside its `/v1/books` body: the facts the body does not
/// show (the upstream cover URL, the provider that named it, Google's volume id), as a few bytes,
/// or, for the rare book whose body does not read back to it exactly, the whole book.
///
/// Why: a cached book holds one rendering (its body, served as is on every hit) and derives the
/// `Book` and the Google-compatible rendering from it when a route needs them, instead of
/// keeping a `Book` (a dozen strings and arrays on the heap) and a second body per entry
/// (docs/cache.md "A book entry").
///
/// Layout (`BinaryRecordWriter`, tag `X`, version 1): a flag, then either (0) the optional Google
/// volume id, the optional cover URL, the cover source (0 none, 1 the first of the book's
/// sources, as it nearly always is, or 2 and its text), or (1) the whole book as the shared
/// record writes it. The id and the URL are kept as bytes in which the ISBN-13 is the byte 0x01
/// and (in the URL) the volume id the byte 0x02: Google's cover URLs name the volume id, Open
/// Library's the ISBN, so both cost a byte rather than their length.
enum BookExtras {
    static let format = BinaryRecordFormat(tag: UInt8(ascii: "X"), version: 1)

    /// How the cover source is kept.
    private enum CoverSource: UInt64 {
        case none = 0, firstSource = 1, text = 2
    }

    /// The bytes kept for `book`, whose body is `body`, in the answer for `isbn`: the few facts
    /// when reading them back with the body gives exactly `book`, the whole book otherwise (also
    /// a book of another ISBN, which `BookAnswer.belongs(toSharedCacheKey:)` must still see).
    /// Exactly sized (no spare capacity).
    static func bytes(for book: Book, isbn: ISBN, body: [UInt8]) -> [UInt8] {
        var slim = BinaryRecordWriter(format: format)
        slim.write(false)
        let isbnToken = (isbnMark, Array(isbn.isbn13.utf8))
        let id = book.googleVolumeID.map { Array($0.utf8) }
        let shortID: [UInt8]? = id.map { shorten($0, [isbnToken]) }
        let shortURL: [UInt8]? = book.coverURL.map { shorten(Array($0.utf8), [(idMark, id ?? []), isbnToken]) }
        for field in [shortID, shortURL] {
            slim.write(field != nil)
            if let field { slim.write(bytes: field) }
        }
        switch book.coverSource {
        case nil: slim.write(CoverSource.none.rawValue)
        case let source? where book.sources.first.map({ $0.utf8.elementsEqual(source.utf8) }) == true:
            slim.write(CoverSource.firstSource.rawValue)
        case let source?:
            slim.write(CoverSource.text.rawValue)
            slim.write(source)
        }
        let short = exactCopy(slim.bytes)
        // Compared as the record's bytes, not with `==` (whose `String` comparison would call two
        // spellings of one canonically equivalent text equal): only an exact read-back will do.
        if let derived = Self.book(isbn: isbn, body: body, bytes: short), recordBytes(derived) == recordBytes(book) {
            return short
        }
        var whole = BinaryRecordWriter(format: format)
        whole.write(true)
        BookAnswer.write(book, to: &whole)
        return exactCopy(whole.bytes)
    }

    /// Every field of `book`, as the shared record writes it.
    private static func recordBytes(_ book: Book) -> [UInt8] {
        var writer = BinaryRecordWriter(format: format)
        BookAnswer.write(book, to: &writer)
        return writer.bytes
    }

    /// The marks that stand for the ISBN-13 and the volume id: control bytes no URL or id holds
    /// (one that did would not read back, and its book would be kept whole).
    private static let isbnMark: UInt8 = 0x01
    private static let idMark: UInt8 = 0x02

    /// `text` with each occurrence of a token's bytes replaced by its mark, tokens tried in order
    /// at each position (empty tokens never match).
    private static func shorten(_ text: [UInt8], _ tokens: [(mark: UInt8, bytes: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var i = 0
        scan: while i < text.count {
            for token in tokens where !token.bytes.isEmpty && text[i...].starts(with: token.bytes) {
                out.append(token.mark)
                i += token.bytes.count
                continue scan
            }
            out.append(text[i])
            i += 1
        }
        return out
    }

    /// `shorten` undone: each mark replaced by its token's bytes.
    private static func expand(_ bytes: [UInt8], _ tokens: [(mark: UInt8, bytes: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 32)
        for byte in bytes {
            if let token = tokens.first(where: { $0.mark == byte }) { out += token.bytes } else { out.append(byte) }
        }
        return out
    }

    /// `bytes` in a new allocation of exactly their size: the writer's buffer has grown with
    /// spare capacity, and a cache entry keeps these bytes for as long as it lives.
    private static func exactCopy(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: bytes)
        }
    }

    /// The book kept in `bytes` (from `bytes(for:isbn:body:)`) for the body `body` of `isbn`'s
    /// answer; nil only for bytes that function never wrote.
    static func book(isbn: ISBN, body: [UInt8], bytes: [UInt8]) -> Book? {
        BinaryRecordReader.read(bytes, format: format) { reader throws(BinaryRecordError) -> Book? in
            if try reader.readBool() { return try BookAnswer.readBook(&reader) }
            let isbnToken = (isbnMark, Array(isbn.isbn13.utf8))
            let id = try reader.readBool() ? expand(try reader.readBytes(), [isbnToken]) : nil
            let url = try reader.readBool() ? expand(try reader.readBytes(), [(idMark, id ?? []), isbnToken]) : nil
            let coverSource: CoverSource? = CoverSource(rawValue: try reader.readUInt64())
            let sourceText = coverSource == .text ? try reader.readString() : nil
            let googleVolumeID = try id.map { bytes throws(BinaryRecordError) in
                guard let text = String(validating: bytes, as: UTF8.self) else { throw reader.invalid("volume id") }
                return text
            }
            let coverURL = try url.map { bytes throws(BinaryRecordError) in
                guard let text = String(validating: bytes, as: UTF8.self) else { throw reader.invalid("cover URL") }
                return text
            }
            guard let coverSource, var book = BookBodyReader.book(isbn: isbn, body: body) else { return nil }
            book.coverURL = coverURL
            switch coverSource {
            case .none: book.coverSource = nil
            case .firstSource: book.coverSource = book.sources.first
            case .text: book.coverSource = sourceText
            }
            book.googleVolumeID = googleVolumeID
            return book
        } ?? nil
    }
}
