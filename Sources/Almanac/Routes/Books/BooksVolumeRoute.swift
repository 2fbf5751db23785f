import Books
import Cache
import HTTP1

extension BooksRoutes {
    /// Google-Books-compatible `GET /books/v1/volumes/{id}` → one `books#volume`: Google's ids
    /// from Google, ids almanac minted from what they were minted for (`VolumeID`), anything
    /// else a 404, in Google's envelope like every error under `/books/v1/`.
    static func volume(_ request: HTTPRequest, id: String, service: BooksService, links: PublicLinks,
                       logger: Logger?) -> HTTPResponseFuture {
        .pending {
            do {
                switch try await service.volume(id: id) {
                case let .book(lookup, mintedID)?:
                    guard let book = lookup.value.book else { return volumeNotFound(id) }
                    var volume = Volume(book: book)
                    volume.id = mintedID
                    return volumeResponse(volume, lookup: lookup, request: request, links: links)
                case let .volume(lookup)?:
                    guard let volume = lookup.value.items.first else { return volumeNotFound(id) }
                    return volumeResponse(volume, lookup: lookup, request: request, links: links)
                case nil:
                    return volumeNotFound(id)
                }
            } catch {
                return GoogleErrorEnvelope.response(BooksProblems.problem(for: error, requestID: request.requestID, logger: logger))
            }
        }
    }

    static func volumeResponse<Value>(_ volume: Volume, lookup: CacheLookup<Value>, request: HTTPRequest,
                                      links: PublicLinks) -> HTTPResponse {
        linked(Array(VolumeRenderer.volumeJSON(volume).utf8), lookup: lookup, variant: "books#volume", request: request,
               links: links)
    }

    static func volumeNotFound(_ id: String) -> HTTPResponse {
        GoogleErrorEnvelope.response(Problem(
            status: .notFound, slug: "volume-not-found", title: "Volume not found",
            detail: "No volume has the id \(BooksProblem.quoted(id)): use an id from a /books/v1/volumes search.",
            types: .almanac))
    }
}
