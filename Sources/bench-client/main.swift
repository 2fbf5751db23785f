// Upstream round trips per second through CurlHTTPClient against a local keep-alive server.
// Usage: bench-client URL [N=2000] [CONCURRENCY=64]   (bench/bench-client.sh runs it)
import Foundation
import HTTPClient

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: bench-client URL [N] [CONCURRENCY]")
    exit(2)
}
let url = arguments[1]
let count = arguments.count > 2 ? Int(arguments[2]) ?? 2000 : 2000
let concurrency = arguments.count > 3 ? Int(arguments[3]) ?? 64 : 64

var configuration = HTTPClientConfiguration()
configuration.retries = 0
configuration.timeoutMs = 30_000
configuration.maxConnectionsPerHost = concurrency
configuration.maxConnectionsTotal = concurrency
let client = CurlHTTPClient(configuration: configuration)
let request = UpstreamRequest(url: url, provider: "bench")

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// User + system CPU seconds of this process so far.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func s(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return s(usage.ru_utime) + s(usage.ru_stime)
}

/// One table row: requests, wall seconds, req/s, latency per request as one caller sees it
/// (wall × workers / requests) and CPU per request (this process's user+sys / requests).
func report(_ name: String, requests: Int, elapsed: Duration, cpu: Double, workers: Int) {
    let s = seconds(elapsed)
    let row = String(format: "| %7d | %7.3f | %9.0f | %9.1f | %8.1f |", requests, s, Double(requests) / s,
                     s * Double(workers) / Double(requests) * 1e6, cpu / Double(requests) * 1e6)
    print("| " + name.padding(toLength: 32, withPad: " ", startingAt: 0) + " " + row)
}

// Warm up: connections, DNS cache, code paths.
for _ in 0..<50 { _ = try await client.get(request) }

let clock = ContinuousClock()
var failures = 0
print("| client                           | requests |  wall s |     req/s | µs/req (caller) | CPU µs/req |")
print("| -------------------------------- | -------: | ------: | --------: | --------------: | ---------: |")
var cpuStart = cpuSeconds()
let sequential = try await clock.measure {
    for _ in 0..<count where try await client.get(request).status != 200 { failures += 1 }
}
report("CurlHTTPClient sequential", requests: count, elapsed: sequential, cpu: cpuSeconds() - cpuStart, workers: 1)
cpuStart = cpuSeconds()

let total = count * 5
let perWorker = total / concurrency
let concurrent = try await clock.measure {
    try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<concurrency {
            group.addTask {
                var bad = 0
                for _ in 0..<perWorker where try await client.get(request).status != 200 { bad += 1 }
                return bad
            }
        }
        for try await bad in group { failures += bad }
    }
}
report("CurlHTTPClient \(concurrency) concurrent", requests: perWorker * concurrency, elapsed: concurrent,
       cpu: cpuSeconds() - cpuStart, workers: concurrency)
if failures > 0 {
    print("failures: \(failures)")
    exit(1)
}
