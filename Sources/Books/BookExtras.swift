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
/// Layout (`BinaryRecordWriter`, tag `X`, version 1): a flag, then either (0) the optional cover
/// URL, cover source and Google volume id, or (1) the whole book as the shared record writes it.
struct BookExtras: Equatable, Sendable {
    var coverURL: String?
    var coverSource: String?
    var googleVolumeID: String?

    static let format = BinaryRecordFormat(tag: UInt8(ascii: "X"), version: 1)

    /// The bytes kept for `book`, whose body is `body`, in the answer for `isbn`: the few facts
    /// when reading the body back gives exactly `book`, the whole book otherwise (also a book of
    /// another ISBN, which `BookAnswer.belongs(toSharedCacheKey:)` must still see). Exactly sized
    /// (no spare capacity).
    static func bytes(for book: Book, isbn: ISBN, body: [UInt8]) -> [UInt8] {
        let extras = BookExtras(coverURL: book.coverURL, coverSource: book.coverSource, googleVolumeID: book.googleVolumeID)
        var writer = BinaryRecordWriter(format: format)
        if BookBodyReader.book(isbn: isbn, body: body, extras: extras) == book {
            writer.write(false)
            writer.write(optional: extras.coverURL)
            writer.write(optional: extras.coverSource)
            writer.write(optional: extras.googleVolumeID)
        } else {
            writer.write(true)
            BookAnswer.write(book, to: &writer)
        }
        return Array(writer.bytes[...])
    }

    /// The book kept in `bytes` (from `bytes(for:isbn:body:)`) for the body `body` of `isbn`'s answer;
    /// nil only for bytes that function never wrote.
    static func book(isbn: ISBN, body: [UInt8], bytes: [UInt8]) -> Book? {
        BinaryRecordReader.read(bytes, format: format) { reader throws(BinaryRecordError) -> Book? in
            if try reader.readBool() { return try BookAnswer.readBook(&reader) }
            let extras = BookExtras(coverURL: try reader.readOptionalString(), coverSource: try reader.readOptionalString(),
                                    googleVolumeID: try reader.readOptionalString())
            return BookBodyReader.book(isbn: isbn, body: body, extras: extras)
        } ?? nil
    }
}
