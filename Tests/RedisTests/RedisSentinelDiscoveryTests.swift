import Testing
@testable import Redis

/// Sentinel discovery's rules, with replies given by hand (no sockets).
@Suite struct RedisSentinelDiscoveryTests {
    static let a = RedisEndpoint(host: "10.0.0.1", port: 26379)
    static let b = RedisEndpoint(host: "10.0.0.2", port: 26379)
    static let c = RedisEndpoint(host: "10.0.0.3", port: 26379)

    static func discovery() -> RedisSentinelDiscovery {
        RedisSentinelDiscovery(configuration: RedisSentinelConfiguration(sentinels: [a, b, c], masterName: "almanac"))
    }

    static func address(_ host: String, _ port: String) -> RESPValue {
        .array([.bulkString(Array(host.utf8)), .bulkString(Array(port.utf8))])
    }

    @Test func theSentinelsAreAskedInTurnAndTheOneThatAnsweredGoesFirst() {
        var discovery = Self.discovery()
        #expect(discovery.lookup() == .ask(0))
        #expect(discovery.unreachable(0, reason: "connection refused") == .ask(1))
        #expect(discovery.answered(1, reply: .null) == .ask(2))
        let primary = RedisEndpoint(host: "10.0.0.9", port: 6379)
        #expect(discovery.answered(2, reply: Self.address("10.0.0.9", "6379")) == .use(primary))
        #expect(discovery.sentinels == [Self.c, Self.a, Self.b])
        // Kept until it fails; then asked for again.
        #expect(discovery.lookup() == .use(primary))
        discovery.forgetPrimary()
        #expect(discovery.lookup() == .ask(0))
    }

    @Test func whenNoSentinelNamesAPrimaryEveryReasonIsGiven() {
        var discovery = Self.discovery()
        _ = discovery.lookup()
        _ = discovery.unreachable(0, reason: "timed out")
        _ = discovery.answered(1, reply: .error(Array("ERR no such master".utf8)))
        guard case .failed(let reason) = discovery.answered(2, reply: .null) else {
            Issue.record("expected a failure")
            return
        }
        #expect(reason.contains("10.0.0.1:26379: timed out"))
        #expect(reason.contains("10.0.0.2:26379: answered an error"))
        #expect(reason.contains("10.0.0.3:26379: does not know this master name"))
        #expect(reason.contains("almanac"))
        // A new lookup starts from scratch.
        #expect(discovery.lookup() == .ask(0))
    }

    @Test(arguments: [
        RESPValue.integer(1), .array([]), .array([.bulkString(Array("10.0.0.9".utf8))]),
        RedisSentinelDiscoveryTests.address("10.0.0.9", "0"), RedisSentinelDiscoveryTests.address("10.0.0.9", "65536"),
        RedisSentinelDiscoveryTests.address("10.0.0.9", "63x9"), RedisSentinelDiscoveryTests.address("bad host", "6379"),
        RedisSentinelDiscoveryTests.address("", "6379"), RedisSentinelDiscoveryTests.address("h@x", "6379"),
        RedisSentinelDiscoveryTests.address("h/x", "6379"),
    ])
    func anAnswerThatIsNotAnAddressIsNotUsed(_ reply: RESPValue) {
        var discovery = Self.discovery()
        _ = discovery.lookup()
        #expect(discovery.answered(0, reply: reply) == .ask(1))
        #expect(discovery.primary == nil)
    }

    @Test func anIPv6PrimaryIsAccepted() {
        var discovery = Self.discovery()
        _ = discovery.lookup()
        #expect(discovery.answered(0, reply: Self.address("::1", "6380")) == .use(RedisEndpoint(host: "::1", port: 6380)))
    }

    @Test func switchMasterMovesToTheNewPrimaryOnceAndOnlyForThisName() {
        var discovery = Self.discovery()
        _ = discovery.lookup()
        _ = discovery.answered(0, reply: Self.address("10.0.0.9", "6379"))
        let moved = RedisEndpoint(host: "10.0.0.8", port: 6380)
        #expect(discovery.switchMaster(Array("other 10.0.0.9 6379 10.0.0.8 6380".utf8)) == nil)
        #expect(discovery.switchMaster(Array("almanac 10.0.0.9 6379 10.0.0.8".utf8)) == nil)
        #expect(discovery.switchMaster(Array("almanac 10.0.0.9 6379 10.0.0.8 99999".utf8)) == nil)
        #expect(discovery.switchMaster(Array("almanac 10.0.0.9 6379 10.0.0.8 6380".utf8)) == moved)
        #expect(discovery.primary == moved)
        // The same announcement from another sentinel changes nothing.
        #expect(discovery.switchMaster(Array("almanac 10.0.0.9 6379 10.0.0.8 6380".utf8)) == nil)
        #expect(discovery.lookup() == .use(moved))
    }

    @Test func roleAndReadOnlyAreRecognized() {
        #expect(RedisSentinelDiscovery.isPrimary(role: .array([.bulkString(Array("master".utf8)), .integer(0), .array([])])))
        #expect(!RedisSentinelDiscovery.isPrimary(role: .array([.bulkString(Array("slave".utf8)), .bulkString(Array("10.0.0.9".utf8))])))
        #expect(!RedisSentinelDiscovery.isPrimary(role: .simpleString(Array("OK".utf8))))
        #expect(RedisSentinelDiscovery.isReadOnly(Array("READONLY You can't write against a read only replica.".utf8)))
        #expect(!RedisSentinelDiscovery.isReadOnly(Array("ERR wrong".utf8)))
    }

    @Test(arguments: ["10.0.0.1:26379", "sentinel-1.internal:26379", "[::1]:26379", "localhost:1"])
    func sentinelAddressesAreParsed(_ text: String) {
        #expect(RedisEndpoint(parsing: text)?.description == text)
    }

    @Test(arguments: ["10.0.0.1", "::1:26379", "[::1]", "h:0", "h:65536", "redis://h:1", "u:p@h:1", "h:1/0", "", ":1", "h:"])
    func badSentinelAddressesAreRefused(_ text: String) {
        #expect(RedisEndpoint(parsing: text) == nil)
    }
}
