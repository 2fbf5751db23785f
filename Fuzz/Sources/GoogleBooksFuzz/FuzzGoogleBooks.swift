// libFuzzer target `google-books`: the input is Google Books' /books/v1/volumes?q=isbn: body.
// Besides the common book checks: no http:// Google thumbnail is left un-upgraded, and the
// volume id the book carries (Google's, or the one minted) is only ever `[A-Za-z0-9_-]{1,64}`.
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
                      for id in [book.googleVolumeID, Volume(book: book).id].compactMap({ $0 }) {
                          check((1...64).contains(id.utf8.count) && id.utf8.allSatisfy { b in
                              (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b)
                                  || b == UInt8(ascii: "-") || b == UInt8(ascii: "_")
                          }, "google-books: volume id \(id.debugDescription) is not [A-Za-z0-9_-]{1,64}")
                      }
                      if let cover = book.coverURL?.lowercased() {
                          for host in GoogleBooksProvider.imageHosts {
                              check(!cover.hasPrefix("http://\(host)/"), "google-books: cover \(cover) not upgraded to https")
                          }
                      }
                  })
    return 0
}
