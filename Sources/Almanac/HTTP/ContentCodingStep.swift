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
        guard var representation = response.representation, representation.contentCoding == .negotiable else { return }
        if !GzipVariants.applies(contentType: representation.contentType, count: response.body.count) {
            representation.contentCoding = .fixed
        } else if AcceptEncoding.allowsGzip(request.headers),
                  let twin = variants.variant(of: response.body, etag: representation.etag) {
            response.body = twin.body
            representation.etag = twin.etag
            representation.contentCoding = .gzip
        } else {
            representation.contentCoding = .identity
        }
        response.representation = representation
    }
}
