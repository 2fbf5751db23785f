// libFuzzer target `open-library`: the input is Open Library's /api/books?…&jscmd=data body.
// Besides the common book checks: a cover is always re-based onto the configured covers host,
// under /b/, without the upstream's query or fragment, with `?default=false`; Open Library
// supplies neither language nor description.
import Books
import FuzzSupport
import HTTPClient

let provider = OpenLibraryProvider()
let coversBase = "https://covers.openlibrary.org"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = inputBytes(data, size)
    BooksFuzz.run(body, provider: provider.name,
                  decode: { bytes, isbn throws(UpstreamError) in try provider.decode(bytes, isbn: isbn) },
                  checkBook: { book in
                      check(book.language == nil && book.description == nil, "open-library: language or description invented")
                      if let cover = book.coverURL {
                          let suffix = "?default=false"
                          check(cover.hasPrefix(coversBase + "/b/") && cover.hasSuffix(suffix),
                                "open-library: cover \(cover) not re-based onto \(coversBase)/b/…\(suffix)")
                          let path = cover.dropFirst(coversBase.count).dropLast(suffix.count)
                          check(!path.contains("?") && !path.contains("#"), "open-library: cover \(cover) keeps a query or fragment")
                      }
                  })
    return 0
}
