/// How answers from several providers become one `Book`.
///
/// Rule: providers are merged in configured order; for each scalar field the first provider
/// that has it wins; an array field (authors, categories) is taken whole from the first
/// provider whose array is non-empty, never concatenated (two spellings of one author would
/// read as two authors). `sources` lists every provider merged, in order. Google's volume id is
/// kept from whichever answer carried it: a book Google contributed to keeps Google's id.
public enum BookMerge {
    /// Facts whose absence is worth one more upstream request. Subtitle, language and
    /// categories are missing too often for their absence to justify asking everyone, but they
    /// are filled whenever another provider is asked anyway.
    public static func isComplete(_ book: Book) -> Bool {
        book.title != nil && !book.authors.isEmpty && book.publisher != nil && book.publishedDate != nil
            && book.pageCount != nil && book.description != nil && book.coverURL != nil
    }

    /// `base` with its missing fields filled from `other`.
    public static func merge(_ base: Book, filling other: Book) -> Book {
        var book = base
        book.title = book.title ?? other.title
        book.subtitle = book.subtitle ?? other.subtitle
        if book.authors.isEmpty { book.authors = other.authors }
        book.publisher = book.publisher ?? other.publisher
        book.publishedDate = book.publishedDate ?? other.publishedDate
        book.pageCount = book.pageCount ?? other.pageCount
        book.language = book.language ?? other.language
        book.description = book.description ?? other.description
        if book.categories.isEmpty { book.categories = other.categories }
        if book.coverURL == nil {
            book.coverURL = other.coverURL
            book.coverSource = other.coverSource
        }
        book.googleVolumeID = book.googleVolumeID ?? other.googleVolumeID
        for source in other.sources where !book.sources.contains(source) { book.sources.append(source) }
        return book
    }
}
