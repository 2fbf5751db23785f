// bench-redis: round-trip latency and pipelined throughput of the Redis client against a
// redis-server this program starts on a free 127.0.0.1 port (persistence off) and stops by PID.
// Run: swift run -c release bench-redis [seconds per phase, default 3]. Prints a Markdown table.
// Reports only (the shared machine makes wall-clock figures vary): never asserted in a test.
import Dispatch
import Foundation
import Redis
import TestSupport

func percentile(_ sorted: [UInt64], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let index = min(sorted.count - 1, Int(Double(sorted.count - 1) * p))
    return Double(sorted[index]) / 1_000
}

/// Runs `workers` tasks issuing GETs of one key back to back for `seconds`; returns each call's
/// latency in nanoseconds and the number of failed calls.
func measure(_ client: RedisClient, workers: Int, seconds: Double) async -> (latencies: [UInt64], failures: Int) {
    let end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    return await withTaskGroup(of: ([UInt64], Int).self) { group in
        for _ in 0..<workers {
            group.addTask {
                var latencies: [UInt64] = []
                var failures = 0
                while DispatchTime.now().uptimeNanoseconds < end {
                    let start = DispatchTime.now().uptimeNanoseconds
                    do {
                        _ = try await client.get("almanac:bench:value")
                        latencies.append(DispatchTime.now().uptimeNanoseconds - start)
                    } catch {
                        failures += 1
                    }
                }
                return (latencies, failures)
            }
        }
        var all: [UInt64] = []
        var failures = 0
        for await (latencies, failed) in group {
            all += latencies
            failures += failed
        }
        return (all.sorted(), failures)
    }
}

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 3
let server = try await RedisServerProcess.start()
let client = RedisClient(configuration: RedisConfiguration(url: try RedisURL(parsing: server.url), timeoutMilliseconds: 1_000))
try await client.set("almanac:bench:value", [UInt8](repeating: 0x61, count: 1_024))
_ = await measure(client, workers: 1, seconds: 0.5) // warm-up

print("| GET of 1 KiB, loopback | calls/s | p50 µs | p99 µs | p99.9 µs | failures |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for workers in [1, 16, 64] {
    let (latencies, failures) = await measure(client, workers: workers, seconds: seconds)
    let rate = Double(latencies.count) / seconds
    print("| \(workers) concurrent caller\(workers == 1 ? "" : "s") | \(Int(rate)) | "
          + String(format: "%.0f | %.0f | %.0f", percentile(latencies, 0.5), percentile(latencies, 0.99), percentile(latencies, 0.999))
          + " | \(failures) |")
}
await client.shutdown()
await server.stop()
