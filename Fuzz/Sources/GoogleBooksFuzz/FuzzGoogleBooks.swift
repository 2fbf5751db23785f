// libFuzzer target `google-books`: the input is Google Books' /books/v1/volumes?q=isbn: body.
// Besides the common book checks: no http:// Google thumbnail is left un-upgraded.
import Books
import FuzzSupport
import HTTPClient

let provider = GoogleBooksProvider()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let body = inputBytes(data, size)
    BooksFuzz.run(body, provider: provider.name,
                  decode: { bytes, isbn throws(UpstreamError) in try provider.decode(bytes, isbn: isbn) },
                  checkBook: { book in
                      if let cover = book.coverURL?.lowercased() {
                          for host in GoogleBooksProvider.imageHosts {
                              check(!cover.hasPrefix("http://\(host)/"), "google-books: cover \(cover) not upgraded to https")
                          }
                      }
                  })
    return 0
}
