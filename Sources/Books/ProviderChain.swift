import HTTPClient

/// Asks providers in configured order and merges what they know (see `BookMerge`).
///
/// - The first provider that finds the book gives its base; while the merged book still lacks a
///   fact worth asking for (`BookMerge.isComplete`), the remaining providers are asked in order
///   and fill only what is missing. Asking one at a time, not all at once, spends a second
///   upstream quota only when the first answer was thin.
/// - Not found falls through; so does a failure (quota exhausted, 5xx, timeout, garbage).
/// - Nil only when every provider said "not found": that answer is cacheable. If nothing was
///   found and any provider failed, the ISBN may well exist, so the failures are thrown
///   (a timeout-only set as `.timeout`, for a 504) and nothing is cached.
/// - Once a book is found, a later provider's failure only costs the facts it would have filled.
struct ProviderChain: Sendable {
    var providers: [any BooksProvider]

    func find(_ isbn: ISBN, client: any HTTPClient) async throws(UpstreamError) -> Book? {
        var book: Book?
        var failures: [UpstreamError] = []
        for provider in providers {
            if let book, BookMerge.isComplete(book) { break }
            do {
                guard let found = try await provider.lookup(isbn, client: client) else { continue }
                book = book.map { BookMerge.merge($0, filling: found) } ?? found
            } catch let error as UpstreamError {
                if error.kind == .cancelled { throw error }
                failures.append(error)
            } catch is CancellationError {
                throw UpstreamError(.cancelled, provider: provider.name, detail: "lookup cancelled")
            } catch {
                failures.append(UpstreamError(.other, provider: provider.name, detail: String(describing: error)))
            }
        }
        if let book { return book }
        guard !failures.isEmpty else { return nil }
        throw Self.combined(failures)
    }

    /// One error for the whole chain: `.timeout` only when every failure was a timeout (504),
    /// else the first other failure's kind (502); the detail keeps each provider's reason.
    static func combined(_ failures: [UpstreamError]) -> UpstreamError {
        if failures.count == 1 { return failures[0] }
        let kind = failures.first { !$0.isTimeout }?.kind ?? .timeout
        return UpstreamError(kind, provider: failures.map(\.provider).joined(separator: "+"),
                             detail: failures.map(\.description).joined(separator: "; "))
    }
}
