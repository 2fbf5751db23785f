import Cache
import Foundation
import HTTP1
import Web
import Synchronization
import TestSupport
@testable import Almanac

/// `router` behind the app's own pipeline (`AlmanacPipeline`: metrics, CORS, caching fields,
/// conditional requests, content coding), called as the server calls it: a unit test sees
/// the fields, codings and 304s a client gets, never a route's bare rendering.
func pipelined(_ router: Router, metrics: HTTPMetrics = HTTPMetrics()) -> HTTPServer.Responder {
    AlmanacPipeline.responder(router: router, metrics: metrics)
}

/// The answer, whether it is ready or pending.
func awaited(_ future: HTTPResponseFuture) async -> HTTPResponse {
    switch future {
    case let .ready(response): return response
    case let .pending(work): return await work()
    }
}

/// Runs a request through a router behind the app's pipeline and awaits the answer.
func respond(_ router: Router, _ method: String, _ target: String, headers: HTTPHeaders = HTTPHeaders()) async -> HTTPResponse {
    await awaited(pipelined(router)(HTTPRequest(method: method, target: target, headers: headers, requestID: "test-request")))
}

/// A cached representation as a route renders it (`HTTPCaching.response`, plus the route's
/// `own` fields), answered through the app's pipeline at `GET /x` (`public`: with CORS).
func serveRepresentation(_ body: [UInt8], contentType: String = "application/json; charset=utf-8",
                         etag: String = "\"abc\"", freshness: CacheFreshness, status: HTTPStatus = .ok,
                         own: HTTPHeaders = HTTPHeaders(), public: Bool = false,
                         headers: HTTPHeaders = HTTPHeaders()) async -> HTTPResponse {
    var router = Router()
    router.get("/x", public: `public`) { _, _ in
        var response = HTTPCaching.response(body: body, contentType: contentType, etag: etag, freshness: freshness,
                                            status: status)
        response.headers = own
        return .ready(response)
    }
    return await respond(router, "GET", "/x", headers: headers)
}

extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
    var jsonObject: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] }
}

/// A cache administration double recording purges.
final class FakeCache: CacheAdministration {
    private let state = Mutex<(stats: [String: CacheStats], purged: [String])>(([:], []))

    init(_ stats: [String: CacheStats] = [:]) { state.withLock { $0.stats = stats } }

    func stats() -> [String: CacheStats] { state.withLock { $0.stats } }
    func purgeAll() { state.withLock { $0.purged.append("*"); $0.stats = $0.stats.mapValues { _ in CacheStats() } } }
    func purge(namespace: String) -> Bool {
        state.withLock { state in
            state.purged.append(namespace)
            guard state.stats[namespace] != nil else { return false }
            state.stats[namespace] = CacheStats()
            return true
        }
    }
    var purged: [String] { state.withLock { $0.purged } }
}


extension CapturedOutput {
    /// The CLI's output, captured.
    var output: AlmanacCLI.Output { AlmanacCLI.Output(out: writeOut, err: writeErr) }
}
