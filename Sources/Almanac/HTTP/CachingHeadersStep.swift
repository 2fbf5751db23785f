import HTTP1
import Synchronization
import Web

/// The caching fields of a cached representation (`HTTPResponse.representation`) as a pipeline
/// step: `Vary`, `ETag`, `Cache-Control`, `Age`, `X-Cache`, `Cache-Status`, `Content-Type` and
/// `Content-Encoding`, in that order, then the route's own fields (a `Vary` of its own,
/// `nosniff`), then whatever outer steps add (CORS). The representation is consumed here.
///
/// It runs after the coding is chosen (`ContentCodingStep`) and the 304 decided
/// (`ConditionalRequestStep`), so it writes the tag and coding actually sent, and a 304 without
/// the fields that describe a body. A route that sets its own `Vary` (the volumes route's
/// forwarded headers) replaces the `Accept-Encoding` one.
///
/// A fresh hit from this process's cache writes a prepared block (`PreparedCachingFields`):
/// every hit on one entry within one second has the same fields, serialized and checked once.
struct CachingHeadersStep: Middleware {
    typealias Token = Void

    /// Writes the fields and consumes the representation: from here on the answer is an
    /// ordinary response (outer steps and the server never read it), and the server copies
    /// no representation with it.
    func finish(_ response: inout HTTPResponse, _ request: HTTPRequest, _ context: RouteContext, _ token: Void) {
        guard let representation = response.representation.take() else { return }
        response.headers = Self.headers(for: representation, status: response.status, own: response.headers)
    }

    /// The caching fields for `representation` answered with `status`, followed by `own`.
    static func headers(for representation: Representation, status: HTTPStatus, own: HTTPHeaders) -> HTTPHeaders {
        let freshness = representation.freshness
        let notModified = status.code == 304
        let gzip = representation.contentCoding == .gzip
        // Most routes add no fields of their own: then there is nothing to look through.
        let hasOwn = !own.isEmpty
        let vary = representation.variesByEncoding && !(hasOwn && own.contains("Vary"))
        let etag = representation.etag
        let contentType = representation.contentType
        let left = Int(max(0, freshness.freshnessLeftSeconds).rounded(.down))
        let age = Int(max(0, freshness.ageSeconds).rounded(.down))
        // A fresh L1 hit's fields repeat for every hit on this entry within the second.
        let plainHit = freshness.outcome == .hit && freshness.freshnessLeftSeconds >= 0 && !freshness.shared
        let room = hasOwn ? own.count + CORSPolicy.maxAddedFields : 0
        func fields() -> [HTTPHeaders.Field] {
            // Its own eight fields at most, the route's, and room for CORS on a public route.
            var fields: [HTTPHeaders.Field] = []
            fields.reserveCapacity(8 + own.count + CORSPolicy.maxAddedFields)
            if vary { fields.append(.init(name: "Vary", value: "Accept-Encoding")) }
            fields.append(.init(name: "ETag", value: etag))
            let (cacheControl, hitStatus) = FreshnessStrings.values(left)
            fields.append(.init(name: "Cache-Control", value: cacheControl))
            fields.append(.init(name: "Age", value: String(age)))
            fields.append(.init(name: "X-Cache", value: freshness.outcome.rawValue))
            fields.append(.init(name: "Cache-Status", value: plainHit ? hitStatus : HTTPCaching.cacheStatus(freshness)))
            if notModified { return fields }
            fields.append(.init(name: "Content-Type", value: contentType))
            if gzip { fields.append(.init(name: "Content-Encoding", value: "gzip")) }
            return fields
        }
        if plainHit && !notModified,
           let prepared = PreparedCachingFields.prepared(
               left: left, age: age, status: status.code, gzip: gzip, vary: vary, etag: etag, contentType: contentType,
               fields: fields) {
            var headers = HTTPHeaders(prepared: prepared, reservingCapacity: room)
            if hasOwn { for field in own { headers.add(field.name, field.value) } }
            return headers
        }
        var all = fields()
        if hasOwn { all.append(contentsOf: own) }
        return HTTPHeaders(fields: all)
    }

    /// The `Cache-Control` and hit `Cache-Status` values for a number of seconds left, kept
    /// for the last few values seen: every hit within one second of one entry asks for the
    /// same strings, so they are formatted once rather than per request.
    enum FreshnessStrings {
        private static let recent = Mutex<[(seconds: Int, cacheControl: String, hitStatus: String)]>([])

        static func values(_ seconds: Int) -> (cacheControl: String, hitStatus: String) {
            if let found = recent.withLock({ $0.first { $0.seconds == seconds } }) {
                return (found.cacheControl, found.hitStatus)
            }
            let made = (seconds: seconds, cacheControl: "public, max-age=\(seconds)",
                        hitStatus: "\(HTTPCaching.cacheName); hit; ttl=\(seconds)")
            recent.withLock { list in
                if list.count >= 8 { list.removeFirst() }
                list.append(made)
            }
            return (made.cacheControl, made.hitStatus)
        }
    }
}
