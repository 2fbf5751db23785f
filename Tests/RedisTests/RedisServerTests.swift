import Dispatch
import Synchronization
import Testing
import TestSupport
@testable import Redis

/// The client against a real `redis-server` each test starts on a free 127.0.0.1 port
/// (persistence off) and stops by PID. Never a mock.
@Suite(.timeLimit(.minutes(5)), .enabled(if: RedisServerProcess.isInstalled, "redis-server is not installed (make test installs it)"))
struct RedisServerTests {
    static func configuration(_ url: String, timeoutMilliseconds: Int = 2_000) throws -> RedisConfiguration {
        RedisConfiguration(url: try RedisURL(parsing: url), timeoutMilliseconds: timeoutMilliseconds,
                           reconnectInitialDelayMilliseconds: 20, reconnectMaximumDelayMilliseconds: 200,
                           healthCheckIntervalMilliseconds: 200)
    }

    /// Retries `body` until it succeeds or `seconds` pass (a call that must work again after a
    /// fault, not a condition: conditions use `waitUntil`).
    @discardableResult
    static func retrying<T>(_ what: String, seconds: Double = 10, _ body: () async throws -> T) async throws -> T {
        let deadline = TestDeadline(seconds: seconds)
        var nap: UInt64 = 5_000_000
        while true {
            do { return try await body() } catch {
                try await deadline.pause("\(what) (last error: \(error))", nap: &nap)
            }
        }
    }

    @Test func stringsWithExpiryDeletionScansAndScripts() async throws {
        let server = try await RedisServerProcess.start()
        let client = RedisClient(configuration: try Self.configuration(server.url))
        try await client.ping()
        #expect(try await client.get("almanac:missing") == nil)
        #expect(try await client.set("almanac:a", [0, 1, 2, 255] as [UInt8]))
        #expect(try await client.get("almanac:a") == [0, 1, 2, 255])
        #expect(try await client.set("almanac:a", "other", onlyIfAbsent: true) == false)
        #expect(try await client.set("almanac:lock", "token-1", expireMilliseconds: 60_000, onlyIfAbsent: true))
        guard case .integer(let ttl) = try await client.send(RedisCommand("PTTL", "almanac:lock")) else { Issue.record("PTTL"); return }
        #expect(ttl > 50_000 && ttl <= 60_000)
        // Owner-token release: another token leaves the lock, the owner's token deletes it.
        let sha = try await client.loadScript(RedisScript.releaseIfOwnerSource)
        let release = RedisScript(source: RedisScript.releaseIfOwnerSource, sha1: sha)
        #expect(try await client.run(release, keys: ["almanac:lock"], arguments: ["token-2"]) == .integer(0))
        #expect(try await client.get("almanac:lock") == Array("token-1".utf8))
        #expect(try await client.evalSHA(sha, keys: ["almanac:lock"], arguments: ["token-1"]) == .integer(1))
        #expect(try await client.get("almanac:lock") == nil)
        // After SCRIPT FLUSH, `run` falls back to EVAL.
        _ = try await client.send(RedisCommand("SCRIPT", "FLUSH"))
        #expect(try await client.run(release, keys: ["almanac:none"], arguments: ["t"]) == .integer(0))
        // SCAN by pattern over more keys than one step returns.
        for i in 0..<250 { try await client.set("almanac:rates:\(i)", "v") }
        try await client.set("other:x", "v")
        let keys = try await client.scanAll(match: "almanac:rates:*", count: 50)
        #expect(Set(keys.map { String(decoding: $0, as: UTF8.self) }) == Set((0..<250).map { "almanac:rates:\($0)" }))
        #expect(try await client.delete(keys) == 250)
        #expect(try await client.delete(["almanac:a", "almanac:nothing"]) == 1)
        #expect(try await client.publish("almanac:invalidate", "x") == 0)
        // A large value (1 MiB) in both directions.
        let big = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try await client.set("almanac:big", big)
        #expect(try await client.get("almanac:big") == big)
        // Error replies are thrown as server errors; a wrong-type reply is reported by kind.
        await #expect(throws: RedisError.self) { _ = try await client.send(RedisCommand("NOSUCHCOMMAND")) }
        _ = try await client.send(RedisCommand("LPUSH", "almanac:list", "x"))
        do {
            _ = try await client.get("almanac:list")
            Issue.record("GET of a list succeeded")
        } catch {
            guard case .server(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.hasPrefix("WRONGTYPE"))
        }
        await client.shutdown()
        await #expect(throws: RedisError.shutDown) { try await client.ping() }
    }

    @Test func pipelinedAndConcurrentCallsGetTheirOwnRepliesInOrder() async throws {
        let server = try await RedisServerProcess.start()
        let client = RedisClient(configuration: try Self.configuration(server.url))
        let replies = await client.pipeline([RedisCommand("SET", "n", 1), RedisCommand("INCR", "n"), RedisCommand("BADCMD"),
                                             RedisCommand("INCRBY", "n", 40), RedisCommand("GET", "n")])
        let values = try replies.get()
        #expect(values.count == 5)
        #expect(values[0] == .simpleString(Array("OK".utf8)))
        #expect(values[1] == .integer(2))
        #expect(values[2].errorBytes != nil)
        #expect(values[3] == .integer(42))
        #expect(values[4] == .bulkString(Array("42".utf8)))
        // 500 calls from concurrent tasks: each gets the echo of its own argument.
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for i in 0..<500 {
                group.addTask {
                    let reply = try? await client.send(RedisCommand("ECHO", "call-\(i)"))
                    return reply?.stringBytes == Array("call-\(i)".utf8) ? 0 : 1
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        // Order on one connection: INCRs issued one after another from one task count up.
        var seen: [Int64] = []
        for _ in 0..<20 {
            if case .integer(let n) = try await client.send(RedisCommand("INCR", "order")) { seen.append(n) }
        }
        #expect(seen == Array(1...20))
        await client.shutdown()
        await server.stop()
    }

    @Test func anACLUserAuthenticatesAndAWrongPasswordIsRefusedWithoutShowingIt() async throws {
        let server = try await RedisServerProcess.start()
        let admin = RedisClient(configuration: try Self.configuration(server.url))
        _ = try await admin.send(RedisCommand("ACL", "SETUSER", "cachebot", "on", ">s3cr3t-pw", "~almanac:*", "+@all"))
        let user = RedisClient(configuration: try Self.configuration("redis://cachebot:s3cr3t-pw@127.0.0.1:\(server.port)"))
        try await user.set("almanac:k", "v")
        #expect(try await user.get("almanac:k") == Array("v".utf8))
        #expect(try await user.send(RedisCommand("ACL", "WHOAMI")).stringBytes == Array("cachebot".utf8))
        // The ACL applies: keys outside ~almanac:* are refused.
        do {
            try await user.set("elsewhere", "v")
            Issue.record("the ACL did not apply")
        } catch {
            guard case .server(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.hasPrefix("NOPERM"))
        }
        await user.shutdown()
        await admin.shutdown()
        await server.stop()
    }

    @Test func aWrongPasswordFailsWithTheServersReasonAndTheClientNeverShowsThePassword() async throws {
        let server = try await RedisServerProcess.start()
        let admin = RedisClient(configuration: try Self.configuration(server.url))
        _ = try await admin.send(RedisCommand("ACL", "SETUSER", "cachebot", "on", ">right-pw", "~*", "+@all"))
        let url = "redis://cachebot:wrong-pw-123@127.0.0.1:\(server.port)"
        let wrong = RedisClient(configuration: try Self.configuration(url))
        #expect(!wrong.configuration.description.contains("wrong-pw-123"))
        do {
            try await wrong.ping()
            Issue.record("a wrong password was accepted")
        } catch {
            guard case .server(let message) = error else { Issue.record("\(error)"); return }
            #expect(message.hasPrefix("WRONGPASS"))
            #expect(!error.description.contains("wrong-pw-123"))
        }
        // While it backs off, calls fail at once, naming the reason, still without the password.
        do {
            try await wrong.ping()
        } catch {
            #expect(!error.description.contains("wrong-pw-123"))
        }
        await wrong.shutdown()
        await admin.shutdown()
        await server.stop()
    }

    @Test func theDatabaseFromTheURLIsSelected() async throws {
        let server = try await RedisServerProcess.start()
        let five = RedisClient(configuration: try Self.configuration("\(server.url)/5"))
        let zero = RedisClient(configuration: try Self.configuration("\(server.url)/0"))
        try await five.set("almanac:where", "five")
        #expect(try await zero.get("almanac:where") == nil)
        #expect(try await five.get("almanac:where") == Array("five".utf8))
        let info = try await five.send(RedisCommand("CLIENT", "INFO"))
        let text = String(decoding: info.stringBytes ?? [], as: UTF8.self)
        #expect(text.contains(" db=5 "))
        #expect(text.contains(" name=almanac "))
        await five.shutdown()
        await zero.shutdown()
        await server.stop()
    }

    @Test func afterTheServerIsKilledAndRestartedTheClientReconnectsByItself() async throws {
        let server = try await RedisServerProcess.start()
        let changes = Mutex<[Bool]>([])
        let client = RedisClient(configuration: try Self.configuration(server.url)) { up in changes.withLock { $0.append(up) } }
        try await client.set("almanac:k", "before")
        await server.kill()
        // The loss is noticed (EOF); calls fail fast while the server is gone.
        try await Self.retrying("the client to notice the loss") {
            guard changes.withLock({ $0.last }) == false else { throw RedisError.timeout }
        }
        await #expect(throws: RedisError.self) { try await client.ping() }
        try await server.launch()
        try await Self.retrying("a call after the restart") { try await client.set("almanac:k", "after") }
        #expect(try await client.get("almanac:k") == Array("after".utf8))
        #expect(changes.withLock { $0 }.starts(with: [true, false]))
        #expect(changes.withLock { $0.last } == true)
        #expect(client.isAvailable)
        await client.shutdown()
        await server.stop()
    }

    @Test func callsAgainstAStalledServerTimeOutWithinTheBoundAndWorkAfterwards() async throws {
        let server = try await RedisServerProcess.start()
        let client = RedisClient(configuration: try Self.configuration(server.url, timeoutMilliseconds: 150))
        try await client.ping()
        server.pause()
        let started = DispatchTime.now().uptimeNanoseconds
        await #expect(throws: RedisError.timeout) { try await client.ping() }
        let elapsedMs = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        // 150 ms bound; the slack is for the shared CPU, not for the client: under `stress-ng
        // --cpu 2` beside the parallel suite the timer's wake-up alone has taken ~900 ms. A call that
        // waited for the stalled server would never end, so 5 s still tells the two apart.
        #expect(elapsedMs >= 140 && elapsedMs < 5_000, "timed out after \(elapsedMs) ms")
        // Every call while stalled ends within its bound too (unavailable, or a timeout on reconnect).
        for _ in 0..<3 {
            let begin = DispatchTime.now().uptimeNanoseconds
            await #expect(throws: RedisError.self) { try await client.get("almanac:x") }
            #expect(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e6 < 5_000)
        }
        server.resume()
        try await Self.retrying("a call after SIGCONT") { try await client.ping() }
        await client.shutdown()
        await server.stop()
    }

    @Test func subscriptionsReceiveMessagesAndAreRenewedAfterARestart() async throws {
        let server = try await RedisServerProcess.start()
        let received = Mutex<[RedisPubSubMessage]>([])
        let subscriber = RedisSubscriber(configuration: try Self.configuration(server.url)) { message in
            received.withLock { $0.append(message) }
        }
        let publisher = RedisClient(configuration: try Self.configuration(server.url))
        try await subscriber.subscribe(["almanac:invalidate", "almanac:other"])
        #expect(subscriber.isSubscribed)
        #expect(try await publisher.publish("almanac:invalidate", "rates/USD") == 1)
        #expect(try await publisher.publish("almanac:unrelated", "x") == 0)
        try await Self.retrying("the first message") {
            guard received.withLock({ $0.count }) == 1 else { throw RedisError.timeout }
        }
        #expect(received.withLock { $0 } == [RedisPubSubMessage(channel: Array("almanac:invalidate".utf8), payload: Array("rates/USD".utf8))])

        await server.kill()
        try await server.launch()
        // Both channels are subscribed again without being asked.
        try await Self.retrying("the subscriber to resubscribe") {
            guard case 2 = try await publisher.publish("almanac:invalidate", "books/1") + (try await publisher.publish("almanac:other", "o")) else {
                throw RedisError.timeout
            }
        }
        try await Self.retrying("the messages after the restart") {
            guard received.withLock({ $0.suffix(2).map(\.payload) }) == [Array("books/1".utf8), Array("o".utf8)] else { throw RedisError.timeout }
        }
        await subscriber.shutdown()
        await publisher.shutdown()
        await server.stop()
    }
}
