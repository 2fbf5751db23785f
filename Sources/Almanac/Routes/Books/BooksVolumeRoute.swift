import Books
import Cache
import HTTP1

extension BooksRoutes {
    /// Google-Books-compatible `GET /books/v1/volumes/{id}` → one `books#volume`: Google's ids
    /// from Google, ids almanac minted from what they were minted for (`VolumeID`), anything
    /// else a 404, in Google's envelope like every error under `/books/v1/`. Always loaded (the
    /// service resolves the id): no fresh step.
    static func volumeEndpoint(_ service: BooksService, links: PublicLinks,
                               failures: ProblemMapping) -> CachedEndpoint<String, BooksService.VolumeLookup?> {
        CachedEndpoint(failures: failures, fresh: { _ in nil }, load: { try await service.volume(id: $0) }) { found, id, request in
            switch found {
            case let .book(lookup, mintedID)?:
                guard let book = lookup.value.book else { throw VolumeNotFound(id: id) }
                var volume = Volume(book: book)
                volume.id = mintedID
                return try volumeResponse(volume, lookup: lookup, request: request, links: links)
            case let .volume(lookup)?:
                guard let volume = lookup.value.items.first else { throw VolumeNotFound(id: id) }
                return try volumeResponse(volume, lookup: lookup, request: request, links: links)
            case nil:
                throw VolumeNotFound(id: id)
            }
        }
    }

    /// No volume has this id: 404 `volume-not-found`.
    struct VolumeNotFound: ProblemConvertible {
        let id: String
        func problem(requestID: String) -> Problem {
            Problem(status: .notFound, slug: "volume-not-found", title: "Volume not found",
                    detail: "No volume has the id \(BooksProblem.quoted(id)): use an id from a /books/v1/volumes search.")
        }
    }

    static func volumeResponse<Value>(_ volume: Volume, lookup: CacheLookup<Value>, request: HTTPRequest,
                                      links: PublicLinks) throws(InvalidRequest) -> HTTPResponse {
        try linked(Array(VolumeRenderer.volumeJSON(volume).utf8), lookup: lookup, variant: "books#volume", request: request,
               links: links)
    }
}
