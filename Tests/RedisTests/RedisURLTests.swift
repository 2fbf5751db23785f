import Testing
@testable import Redis

@Suite struct RedisURLTests {
    @Test func everyPartIsReadAndDefaulted() throws {
        let plain = try RedisURL(parsing: "redis://cache.internal")
        #expect(plain == RedisURL(host: "cache.internal", port: 6379, user: nil, password: nil, database: 0))
        let full = try RedisURL(parsing: "REDIS://almanac:p%40ss%3Aw0rd@10.0.0.7:6380/3")
        #expect(full.host == "10.0.0.7")
        #expect(full.port == 6380)
        #expect(full.user == Array("almanac".utf8))
        #expect(full.password == Array("p@ss:w0rd".utf8))
        #expect(full.database == 3)
        let passwordOnly = try RedisURL(parsing: "redis://:secret@localhost/")
        #expect(passwordOnly.user == nil)
        #expect(passwordOnly.password == Array("secret".utf8))
        #expect(passwordOnly.database == 0)
        let v6 = try RedisURL(parsing: "redis://[::1]:7000/1")
        #expect(v6.host == "::1")
        #expect(v6.port == 7000)
        #expect(v6.description == "redis://[::1]:7000/1")
    }

    @Test func redissMeansTLSAndKeepsEveryOtherPart() throws {
        let secure = try RedisURL(parsing: "RediSS://:hunter2@cache.internal:6380/1")
        #expect(secure.tls)
        #expect(secure.host == "cache.internal" && secure.port == 6380 && secure.database == 1)
        #expect(secure.description == "rediss://:***@cache.internal:6380/1")
        #expect(try RedisURL(parsing: "redis://h").tls == false)
    }

    @Test func thePasswordIsRedactedInTheDescription() throws {
        let url = try RedisURL(parsing: "redis://almanac:hunter2@h:1/2")
        #expect(url.description == "redis://almanac:***@h:1/2")
        #expect(!RedisConfiguration(url: url).description.contains("hunter2"))
        #expect(try RedisURL(parsing: "redis://:hunter2@h").description == "redis://:***@h:6379/0")
    }

    @Test(arguments: [
        "http://h", "rediss:/h", "redis://", "redis://h:0", "redis://h:65536", "redis://h:12x", "redis://h/x",
        "redis://h/1/2", "redis://h?db=1", "redis://h#frag", "redis://user@h", "redis://user:@h", "redis://u:p%4@h",
        "redis://[::1", "redis://[::1]x", "redis://bad host", "redis://h/99999999",
    ])
    func invalidURLsAreRefusedWithoutEchoingThem(_ text: String) {
        do {
            _ = try RedisURL(parsing: text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(!error.description.isEmpty)
            #expect(!error.description.contains(text))
        }
    }

    @Test func anErrorReplyEchoingThePasswordIsMasked() {
        let error = RedisError.server(Array("ERR unknown command 'HELLO', with args beginning with: '3' 'AUTH' 'u' 'hunter2'".utf8),
                                      masking: Array("hunter2".utf8))
        #expect(error == .server("ERR unknown command 'HELLO', with args beginning with: '3' 'AUTH' 'u' '***'"))
    }

    @Test func theHandshakeAuthenticatesAndSelects() throws {
        var configuration = RedisConfiguration(url: try RedisURL(parsing: "redis://u:pw@h/2"))
        configuration.clientName = "almanac test"
        let handshake = configuration.handshake
        var expected: [UInt8] = []
        RedisCommand("HELLO", 3, "AUTH", "u", "pw", "SETNAME", "almanactest").encoded(into: &expected)
        RedisCommand("SELECT", 2).encoded(into: &expected)
        #expect(handshake.bytes == expected)
        #expect(handshake.replies == 2)
        let anonymous = RedisConfiguration(url: RedisURL(host: "h"), clientName: "")
        var hello: [UInt8] = []
        RedisCommand("HELLO", 3).encoded(into: &hello)
        #expect(anonymous.handshake.bytes == hello)
        #expect(anonymous.handshake.replies == 1)
    }
}

@Suite struct ReconnectBackoffTests {
    @Test func delaysDoubleUpToTheMaximumAndResetAfterSuccess() {
        var backoff = ReconnectBackoff(initial: 100, maximum: 1_000)
        // jitter 1: the nominal delay itself.
        #expect([1, 2, 3, 4, 5, 6].map { _ in backoff.nextDelay(jitter: 1) } == [100, 200, 400, 800, 1_000, 1_000])
        #expect(backoff.failures == 6)
        backoff.reset()
        #expect(backoff.nextDelay(jitter: 1) == 100)
    }

    @Test func jitterKeepsAtLeastHalfTheNominalDelay() {
        var backoff = ReconnectBackoff(initial: 1_000, maximum: 8_000)
        #expect(backoff.nextDelay(jitter: 0) == 500)
        #expect(backoff.nextDelay(jitter: 0.5) == 1_500)
        #expect(backoff.nextDelay(jitter: .nan) == 2_000)
        #expect(backoff.nextDelay(jitter: 7) == 8_000)
    }

    @Test func manyFailuresNeverOverflow() {
        var backoff = ReconnectBackoff(initial: .max / 3, maximum: .max)
        for _ in 0..<200 { #expect(backoff.nextDelay(jitter: 1) <= .max) }
    }
}
