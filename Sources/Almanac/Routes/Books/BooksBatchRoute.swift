import Base
import Books
import Cache
import HTTP1
import Web

extension BooksRoutes {
    /// Most ISBNs one batch request may name (docs/books.md, `GET /v1/books?isbn=A,B,…`).
    public static let maxBatchSize = 20

    /// One entry of a batch: parsed (or why not), and once looked up, its answer or error.
    struct BatchEntry: Sendable {
        var given: String
        var isbn: Result<ISBN, Problem>
    }

    /// `GET /v1/books?isbn=A,B,…` (also repeated `isbn=` parameters): every ISBN looked up
    /// concurrently, each answering its book or `{"error":{problem}}`, keyed as given. ISBNs that
    /// are one book (`0306406152`, `978-0-306-40615-7`) share one lookup. The response is 200
    /// whenever the request itself is well-formed; it may be cached by clients for as long as
    /// its least fresh entry, unless an entry failed upstream (then `no-store`).
    ///
    /// The limit counts entries as given: `isbn=A,A,…` with 21 non-empty items is a 400 even
    /// if they name fewer books (empty items, `A,,B`, are not entries). Identical texts (same
    /// bytes) then share one key in the answer.
    static func batch(_ request: HTTPRequest, service: BooksService, failures: ProblemMapping) -> HTTPResponseFuture {
        var entryCount = 0
        var given: [String] = []
        for item in request.queryItems where item.name.utf8.elementsEqual("isbn".utf8) {
            for piece in item.value.commaSeparatedItems() {
                entryCount += 1
                guard entryCount <= maxBatchSize else { continue }
                let text = String(piece)
                if !given.contains(where: { $0.utf8.elementsEqual(text.utf8) }) { given.append(text) }
            }
        }
        guard entryCount > 0 else {
            return .ready(failures.response(for: InvalidRequest(
                "Query parameter isbn is required: /v1/books?isbn=9780306406157,0140449132 (at most \(maxBatchSize))."), request))
        }
        guard entryCount <= maxBatchSize else {
            return .ready(failures.response(for: InvalidRequest(
                "At most \(maxBatchSize) ISBNs per request, got \(entryCount) (repeated ISBNs count)."), request))
        }
        let entries = given.map { BatchEntry(given: $0, isbn: BooksProblems.parse($0)) }
        var answers: [ISBN: Result<CacheLookup<BookAnswer>, Problem>] = [:]
        var missing: [ISBN] = []
        for case let .success(isbn) in entries.map(\.isbn) where answers[isbn] == nil && !missing.contains(isbn) {
            if let hit = service.cachedBook(isbn) { answers[isbn] = .success(hit) } else { missing.append(isbn) }
        }
        if missing.isEmpty { return .ready(batchResponse(entries, answers, failures: failures)) }
        let known = answers, toLoad = missing
        return .pending {
            var answers = known
            await withTaskGroup(of: BatchLookup.self) { group in
                for isbn in toLoad {
                    group.addTask {
                        do {
                            return BatchLookup(isbn: isbn, answer: .success(try await service.book(isbn)))
                        } catch {
                            return BatchLookup(isbn: isbn, answer: .failure(
                                failures.problem(for: error, requestID: request.requestID)))
                        }
                    }
                }
                while let lookup = await group.next() { answers[lookup.isbn] = lookup.answer }
            }
            return batchResponse(entries, answers, failures: failures)
        }
    }

    /// One child task's answer. A named final class rather than a tuple: the release build of
    /// Swift 6.3.1 crashed copying a `(ISBN, Result<CacheLookup<BookAnswer>, Problem>)` child
    /// result into the waiting parent (`TaskGroupBase::prepareWaitingTaskWithTask`,
    /// reproduced by `bench/repro/batch_crash.sh`); a single reference is trivially copied.
    final class BatchLookup: Sendable {
        let isbn: ISBN
        let answer: Result<CacheLookup<BookAnswer>, Problem>
        init(isbn: ISBN, answer: Result<CacheLookup<BookAnswer>, Problem>) {
            self.isbn = isbn
            self.answer = answer
        }
    }

    /// Assembles the body from each answer's stored bytes: no book is encoded again.
    static func batchResponse(_ entries: [BatchEntry],
                              _ answers: [ISBN: Result<CacheLookup<BookAnswer>, Problem>],
                              failures: ProblemMapping) -> HTTPResponse {
        var body: [UInt8] = Array("{\"results\":{".utf8)
        var maxAge = Double.infinity
        var failed = false
        for (i, entry) in entries.enumerated() {
            if i > 0 { body.append(UInt8(ascii: ",")) }
            body += Array(JSONText.quoted(entry.given).utf8)
            body.append(UInt8(ascii: ":"))
            switch entry.isbn {
            case let .failure(problem):
                body += errorObject(problem.jsonBytes)
            case let .success(isbn):
                switch answers[isbn] {
                case let .success(lookup)?:
                    maxAge = min(maxAge, lookup.freshnessLeftSeconds)
                    body += lookup.value.isFound ? lookup.value.body : errorObject(lookup.value.body)
                case let .failure(problem)?:
                    failed = true
                    body += errorObject(problem.jsonBytes)
                case nil:
                    failed = true
                    body += errorObject(failures.problem(for: CancellationError(), requestID: "").jsonBytes)
                }
            }
        }
        body += Array("}}".utf8)
        var headers = HTTPHeaders()
        if failed {
            headers.set("Cache-Control", "no-store")
        } else {
            let seconds = maxAge.isFinite ? Int(max(0, maxAge).rounded(.down)) : 0
            headers.set("Cache-Control", "public, max-age=\(seconds)")
        }
        return .json(body, headers: headers)
    }

    private static func errorObject(_ problem: [UInt8]) -> [UInt8] {
        Array("{\"error\":".utf8) + problem + [UInt8(ascii: "}")]
    }
}
