import HTTP1
import Web

/// Content coding of cached representations as a pipeline step (RFC 9110 §8.4.1.3, §12.5.3):
/// a representation that may be coded (`Representation.ContentCoding.negotiable`) and is worth
/// it (`GzipVariants.applies`: text and JSON from 1 KiB on) is answered with its gzip twin when
/// the request's `Accept-Encoding` allows gzip, else as it is; either way it now varies by
/// `Accept-Encoding`, which the caching fields say.
///
/// The innermost step: the twin has its own strong tag, and the 304 decision and the `ETag`
/// field that follow must see the tag of the bytes actually chosen.
struct ContentCodingStep: Middleware {
    typealias Token = Void
    let variants: GzipVariants

    func finish(_ response: inout HTTPResponse, _ request: HTTPRequest, _ context: RouteContext, _ token: Void) {
        // Read and changed in place: the representation is never copied out of the response.
        guard response.representation?.contentCoding == .negotiable,
              let contentType = response.representation?.contentType else { return }
        if !GzipVariants.applies(contentType: contentType, count: response.body.count) {
            response.representation?.contentCoding = .fixed
        } else if AcceptEncoding.allowsGzip(request), let etag = response.representation?.etag,
                  let twin = variants.variant(of: response.body, etag: etag) {
            response.body = twin.body
            response.representation?.etag = twin.etag
            response.representation?.contentCoding = .gzip
        } else {
            response.representation?.contentCoding = .identity
        }
    }
}
