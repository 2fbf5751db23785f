import Cache
import Foundation
import HTTP1
import Web
import Synchronization
import TestSupport
@testable import Almanac

/// Runs a request through a router and awaits the answer, ready or pending.
func respond(_ router: Router, _ method: String, _ target: String, headers: HTTPHeaders = HTTPHeaders()) async -> HTTPResponse {
    switch router.respond(to: HTTPRequest(method: method, target: target, headers: headers, requestID: "test-request")) {
    case let .ready(response): return response
    case let .pending(work): return await work()
    }
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
