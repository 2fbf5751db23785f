import Cache
import Foundation
import HTTP1
import Web
import Synchronization
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

/// A file system for the configuration loader: path → contents.
func files(_ contents: [String: String]) -> ConfigurationLoader.FileReader {
    { path in contents[path].map { Data($0.utf8) } }
}

/// Collects CLI output.
final class CapturedOutput: Sendable {
    private let state = Mutex<(out: [String], err: [String])>(([], []))
    var output: AlmanacCLI.Output {
        AlmanacCLI.Output(out: { s in self.state.withLock { $0.out.append(s) } },
                          err: { s in self.state.withLock { $0.err.append(s) } })
    }
    var out: String { state.withLock { $0.out.joined(separator: "\n") } }
    var err: String { state.withLock { $0.err.joined(separator: "\n") } }
}

/// The repository root, for tests that read checked-in files (config/almanac.json).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
