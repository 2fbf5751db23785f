/// Waits until `condition` holds, polling with short naps that grow to 8 ms (never blocking a
/// thread of the cooperative pool), and answers whether it held before `timeout` seconds
/// passed. The one wait every test target uses: assert its answer, so a condition that never
/// comes fails the test instead of hanging it, and nothing sleeps hoping:
/// `#expect(await waitUntil { server.openConnections == 0 }, "the connection closed")`.
///
/// The default deadline is a safety net, not a bound on the condition: it is one minute because
/// the whole test process can be starved for tens of seconds on a busy 2-core machine (under
/// `stress-ng --cpu 2` and parallel builds, tests that do nothing waited 21 s to start), and a
/// condition that comes in milliseconds must not fail then. A condition that never comes still
/// fails, only later.
public func waitUntil(timeout: Double = 60, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = TestDeadline(seconds: timeout)
    var nap: UInt64 = 1_000_000
    while !deadline.passed {
        if try await condition() { return true }
        try? await Task.sleep(nanoseconds: nap)
        nap = min(nap * 2, 8_000_000)
    }
    return try await condition()
}
