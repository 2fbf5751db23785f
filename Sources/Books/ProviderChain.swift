import HTTPClient

/// Asks providers in configured order and merges what they know (see `BookMerge`).
///
/// - The first provider that finds the book gives its base; while the merged book still lacks a
///   fact worth asking for (`BookMerge.isComplete`), the remaining providers are asked in order
///   and fill only what is missing. Asking one at a time, not all at once, spends a second
///   upstream quota only when the first answer was thin.
/// - Not found falls through; so does a failure (quota exhausted, 5xx, timeout, garbage).
/// - Nil only when every provider said "not found": that answer is cacheable. If nothing was
///   found and any provider failed, the ISBN may well exist, so `ProvidersFailed` is thrown
///   (502, or 504 when every failure was a timeout) and nothing is cached.
/// - Once a book is found, a later provider's failure only costs the facts it would have filled.
struct ProviderChain: Sendable {
    var providers: [any BooksProvider]

    func find(_ isbn: ISBN, client: any HTTPClient) async throws -> Book? {
        var book: Book?
        var failures: [UpstreamError] = []
        for provider in providers {
            if let book, BookMerge.isComplete(book) { break }
            do {
                guard let found = try await provider.lookup(isbn, client: client) else { continue }
                book = book.map { BookMerge.merge($0, filling: found) } ?? found
            } catch let error as UpstreamError {
                if error.kind == .cancelled { throw CancellationError() }
                failures.append(error)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                failures.append(UpstreamError(.other, provider: provider.name, detail: String(describing: error)))
            }
        }
        if let book { return book }
        guard !failures.isEmpty else { return nil }
        throw ProvidersFailed(failures: failures)
    }
}
