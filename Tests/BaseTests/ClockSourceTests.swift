import Foundation
import Testing
import TestSupport

/// Every component takes its time from one injected clock (`MonotonicClock`: `SystemClock` in
/// production, `ManualClock` in tests; the cache's `CacheClock`, the rates' `WallClock`), so a
/// test that drives a component with a manual clock never meets a real-time deadline or sleep
/// inside it. This guard scans Sources/ and fails when a file reads or waits on real time
/// directly, unless it is one of the edges named below: the production clocks themselves and
/// the places where real time is the point (the event loop's timers, libcurl's, a log line's
/// timestamp). A file on the list that no longer reads time fails too, so the list stays exact.
/// The same scan of `Tests/` keeps manual-clock test files free of real time.
@Suite struct ClockSourceTests {
    /// Files allowed to read real time, each with why.
    static let allowed: [String: String] = [
        "Base/SystemClock.swift": "the production MonotonicClock (ContinuousClock, Task.sleep)",
        "Cache/CacheClocks.swift": "the cache's production clocks: monotonic for L1, Unix time for shared envelopes",
        "Rates/WallClock.swift": "the production wall clock of fetch times (WallClocks.system)",
        "HTTPClient/CurlMultiEngine.swift": "libcurl's own timer: curl asks to be called back after N ms of real time",
        "HTTPClient/RetryPolicy.swift": "an HTTP-date Retry-After is wall-clock by definition (default argument; tests pass `now`)",
        "Upstream/AttemptOutcome.swift": "the same for a stop's HTTP-date Retry-After (default argument; tests pass `wallNow`)",
        "Cache/SharedCacheLayer.swift": "the pause between polls of another replica's fill lock only paces calls to Redis; the wait limit is on the injected clock",
        "Transport/Listener.swift": "the accept back-off timer, armed on the event loop's clock",
        "Transport/SystemFacts.swift": "the wall-clock second of the Date header; the monotonic reading (`monotonicNanoseconds`) of the event loops' timers and epoll timeout, the connections' state machines, access-log durations, request latency and the cache's production clock",
        "HTTP1/HTTPServer.swift": "the drain grace timer of a real shutdown",
        "HTTP1/LoopGovernance.swift": "the sampling timer of the loop governor (the rule itself, LoopGovernor, is pure and fed windows)",
        "Transport/EventLoop.swift": "a loop thread's CPU clock (`threadCPUNanoseconds`), the loop governor's measure of busy time",
        "Redis/RedisClientCore.swift": "the production reading handed to RedisConnectionStateMachine (pure, takes `now`), its tick timer, the jitter seed",
        "Redis/RedisSubscriber.swift": "a SUBSCRIBE's confirmation timeout on the client's queue",
        "Almanac/AlmanacApp.swift": "the shutdown delay load balancers see, in real seconds",
        "Almanac/CLI/HealthCheck.swift": "the health-check command's deadline over a real socket",
        "Almanac/Logging/Logger.swift": "every log line's wall-clock time",
    ]

    /// Directories that are not components: test infrastructure (real deadlines for tests'
    /// waits) and benchmark drivers (they measure real time).
    static let skippedDirectories = ["TestSupport/", "HTTPClientTestSupport/", "bench-cache/", "bench-client/",
                                     "bench-redis/", "bench-server/"]

    /// Reading the system's clock or waiting on it.
    static let directReads = [
        #"DispatchTime\.now\("#, #"DispatchWallTime"#, #"[:(,]\s*\.now\(\)"#, #"ContinuousClock\.now"#,
        #"ContinuousClock\(\)"#, #"SuspendingClock"#, #"\bDate\(\)"#, #"\bDate\.now\b"#, #"timeIntervalSinceNow"#,
        #"clock_gettime"#, #"gettimeofday"#, #"\btime\(nil\)"#, #"Task\.sleep"#, #"Thread\.sleep"#,
        #"(?<![.\w])(?<!func )u?sleep\("#, #"\bnanosleep\("#, #"asyncAfter\("#,
    ].map { pattern in
        // The patterns are constants of this file: a bad one is this file's bug.
        (pattern, try? NSRegularExpression(pattern: pattern))
    }

    /// `Sources/`-relative path → the first offending line, for every Swift file that reads time.
    static func filesReadingTime() throws -> [String: String] {
        let sources = repositoryRoot.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") } ?? []
        var found: [String: String] = [:]
        for file in files where !skippedDirectories.contains(where: { file.hasPrefix($0) }) {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            if let line = firstRead(in: text) { found[file] = line }
        }
        return found
    }

    /// Test files allowed to read real time although they drive a manual clock, each with why.
    static let allowedInManualClockTests: [String: String] = [
        "CacheTests/StressTests.swift": "random sub-millisecond pauses shuffle the interleaving of loads and cancellations; nothing waits on them",
    ]

    /// How a test file says it drives a manual clock.
    static let manualClockMarker = try? NSRegularExpression(
        pattern: #"ManualClock|ManualCacheClock|\.advance\(by:|manual clock|fake clock"#, options: [.caseInsensitive])

    /// `Tests/`-relative path → the first line reading real time, for every test file that
    /// names a manual clock (this file aside: it names the patterns).
    static func manualClockTestsReadingTime() throws -> [String: String] {
        let tests = repositoryRoot.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasSuffix("/ClockSourceTests.swift") } ?? []
        var found: [String: String] = [:]
        for file in files {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            guard manualClockMarker?.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil else { continue }
            if let line = firstRead(in: text) { found[file] = line }
        }
        return found
    }

    /// The first code line of `text` (comment lines aside) that reads or waits on real time.
    static func firstRead(in text: String) -> String? {
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            let code = String(line)
            if code.drop(while: { $0 == " " }).hasPrefix("//") { continue }
            let range = NSRange(code.startIndex..., in: code)
            if directReads.contains(where: { $0.1?.firstMatch(in: code, range: range) != nil }) {
                return code.trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    @Test func manualClockTestsNeverReadRealTime() throws {
        #expect(Self.manualClockMarker != nil)
        let found = try Self.manualClockTestsReadingTime()
        for (file, line) in found.sorted(by: { $0.key < $1.key }) where Self.allowedInManualClockTests[file] == nil {
            Issue.record("Tests/\(file) drives a manual clock but reads real time (`\(line)`): advance the clock and wait for the condition instead")
        }
        for file in Self.allowedInManualClockTests.keys.sorted() where found[file] == nil {
            Issue.record("Tests/\(file) no longer reads real time: remove it from ClockSourceTests.allowedInManualClockTests")
        }
    }

    @Test func thePatternsCompile() {
        for (pattern, expression) in Self.directReads {
            #expect(expression != nil, "\(pattern)")
        }
    }

    @Test func onlyTheNamedClockSourcesReadRealTime() throws {
        let found = try Self.filesReadingTime()
        #expect(!found.isEmpty, "the scan found nothing: Sources/ was not read")
        for (file, line) in found.sorted(by: { $0.key < $1.key }) where Self.allowed[file] == nil {
            Issue.record("Sources/\(file) reads real time directly (`\(line)`): take it from an injected clock (MonotonicClock, CacheClock, WallClock), or name the file in ClockSourceTests.allowed with why")
        }
        for file in Self.allowed.keys.sorted() where found[file] == nil {
            Issue.record("Sources/\(file) no longer reads real time: remove it from ClockSourceTests.allowed")
        }
    }

    @Test func theScanSeesEachKindOfRead() {
        let reads = ["let t = DispatchTime.now()", "timer.schedule(deadline: .now() + 1)", "let c = ContinuousClock()",
                     "let d = Date()", "try await Task.sleep(for: wait)", "usleep(10)", "sleep(1)",
                     "queue.asyncAfter(deadline: d) {}", "clock_gettime(CLOCK_REALTIME, &spec)"]
        let fine = ["let t = clock.now()", "try await clock.sleep(seconds: 1)", "func sleep(until deadline: Double)", "let d = Date(timeIntervalSince1970: 0)",
                    "let t = steward.now()"]
        func matches(_ code: String) -> Bool {
            let range = NSRange(code.startIndex..., in: code)
            return Self.directReads.contains { $0.1?.firstMatch(in: code, range: range) != nil }
        }
        for code in reads { #expect(matches(code), "\(code)") }
        for code in fine { #expect(!matches(code), "\(code)") }
    }
}
