import Cache

/// In the shared layer's keys, and in the records of book answers, an ISBN is its thirteen
/// ASCII digits: `9780306406157`.
extension ISBN: SharedCacheKey {
    public var sharedCacheKeyBytes: [UInt8] { Array(isbn13.utf8) }

    /// The ISBN whose canonical form is exactly `isbn13`; nil for anything else (an ISBN-10,
    /// hyphens, a wrong check digit), so bytes read from the shared layer rebuild only the
    /// ISBN that was written.
    init?(isbn13 text: String) {
        guard text.utf8.count == 13, let isbn = try? ISBN(parsing: text), isbn.isbn13 == text else { return nil }
        self = isbn
    }
}
