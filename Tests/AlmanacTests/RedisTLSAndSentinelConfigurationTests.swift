import Foundation
import Cache
import Redis
import Synchronization
import Testing
import TestSupport
@testable import Almanac

/// `cache.redis.tls.*`, `.sentinels`, `.masterName`, `.password`: what they turn into, and the
/// combinations refused at load time (each problem names the key to change).
@Suite struct RedisTLSAndSentinelConfigurationTests {
    static let pem = ["/etc/almanac/ca.pem": "-----BEGIN CERTIFICATE-----", "/etc/almanac/client.pem": "x",
                      "/etc/almanac/client.key": "y"]

    private func load(_ env: [String: String]) -> Result<AlmanacConfiguration, ConfigurationErrors> {
        ConfigurationLoader.load(flags: ConfigurationFlags(), environment: env, fileReader: files(Self.pem))
    }

    private func problems(_ env: [String: String]) -> [String] {
        guard case .failure(let errors) = load(env) else { return [] }
        return errors.problems
    }

    @Test func redissWithFilesAndANameBecomesAVerifiedTLSConfiguration() throws {
        let config = try load(["ALMANAC_CACHE_REDIS_URL": "rediss://:s3cret-pw@redis.internal:6380",
                               "ALMANAC_CACHE_REDIS_TLS_CA_FILE": "/etc/almanac/ca.pem",
                               "ALMANAC_CACHE_REDIS_TLS_CERT_FILE": "/etc/almanac/client.pem",
                               "ALMANAC_CACHE_REDIS_TLS_KEY_FILE": "/etc/almanac/client.key",
                               "ALMANAC_CACHE_REDIS_TLS_SERVER_NAME": "redis.example"]).get()
        let redis = try #require(config.redisConfiguration)
        #expect(redis.url.tls)
        #expect(redis.tls == RedisTLSConfiguration(caFile: "/etc/almanac/ca.pem", certFile: "/etc/almanac/client.pem",
                                                   keyFile: "/etc/almanac/client.key", serverName: "redis.example", verify: true))
        #expect(redis.sentinel == nil)
        #expect(!redis.target.contains("s3cret-pw"))
    }

    @Test func sentinelsWithAMasterNameFindThePrimaryWithThePasswordAndTLS() throws {
        let config = try load(["ALMANAC_CACHE_REDIS_SENTINELS": "10.0.0.1:26379, 10.0.0.2:26379,[::1]:26380",
                               "ALMANAC_CACHE_REDIS_MASTER_NAME": "almanac",
                               "ALMANAC_CACHE_REDIS_PASSWORD": "s3cret-pw",
                               "ALMANAC_CACHE_REDIS_TLS_ENABLED": "true"]).get()
        let redis = try #require(config.redisConfiguration)
        #expect(redis.sentinel == RedisSentinelConfiguration(
            sentinels: [RedisEndpoint(host: "10.0.0.1", port: 26379), RedisEndpoint(host: "10.0.0.2", port: 26379),
                        RedisEndpoint(host: "::1", port: 26380)], masterName: "almanac"))
        #expect(redis.url.password == Array("s3cret-pw".utf8) && redis.url.tls)
        #expect(config.secrets.contains("s3cret-pw"))
        #expect(!config.redactedJSON.contains("s3cret-pw"))
        #expect(!redis.description.contains("s3cret-pw"))
    }

    @Test(arguments: [
        (["ALMANAC_CACHE_REDIS_URL": "redis://h", "ALMANAC_CACHE_REDIS_SENTINELS": "h:26379", "ALMANAC_CACHE_REDIS_MASTER_NAME": "m"],
         "cache.redis.sentinels: cannot be combined with cache.redis.url"),
        (["ALMANAC_CACHE_REDIS_SENTINELS": "h:26379"], "cache.redis.masterName: required"),
        (["ALMANAC_CACHE_REDIS_MASTER_NAME": "m"], "cache.redis.masterName: only used with cache.redis.sentinels"),
        (["ALMANAC_CACHE_REDIS_URL": "redis://h", "ALMANAC_CACHE_REDIS_PASSWORD": "pw-1234"], "cache.redis.password: only used"),
        (["ALMANAC_CACHE_REDIS_URL": "rediss://h", "ALMANAC_CACHE_REDIS_TLS_ENABLED": "true"], "cache.redis.tls.enabled: only used"),
        (["ALMANAC_CACHE_REDIS_URL": "redis://h", "ALMANAC_CACHE_REDIS_TLS_VERIFY": "false"], "cache.redis.tls.verify: false has no effect without TLS"),
        ([:] as [String: String], "") ,
        (["ALMANAC_CACHE_REDIS_SENTINELS": "h:26379", "ALMANAC_CACHE_REDIS_MASTER_NAME": "m",
          "ALMANAC_CACHE_REDIS_TLS_VERIFY": "false"], "cache.redis.tls.verify: false has no effect without TLS"),
        (["ALMANAC_CACHE_REDIS_URL": "redis://h", "ALMANAC_CACHE_REDIS_TLS_CA_FILE": "/etc/almanac/ca.pem"], "cache.redis.tls.caFile: has no effect without TLS"),
        (["ALMANAC_CACHE_REDIS_URL": "rediss://h", "ALMANAC_CACHE_REDIS_TLS_CERT_FILE": "/etc/almanac/client.pem"], "cache.redis.tls.keyFile: required with cache.redis.tls.certFile"),
        (["ALMANAC_CACHE_REDIS_URL": "rediss://h", "ALMANAC_CACHE_REDIS_TLS_KEY_FILE": "/etc/almanac/client.key"], "cache.redis.tls.certFile: required"),
        (["ALMANAC_CACHE_REDIS_URL": "rediss://h", "ALMANAC_CACHE_REDIS_TLS_CA_FILE": "/etc/almanac/missing.pem"], "cache.redis.tls.caFile: cannot read /etc/almanac/missing.pem"),
        (["ALMANAC_CACHE_REDIS_SENTINELS": "h"], "cache.redis.sentinels:"),
        (["ALMANAC_CACHE_REDIS_SENTINELS": "h:1,h:1"], "cache.redis.sentinels:"),
        (["ALMANAC_CACHE_REDIS_TLS_SERVER_NAME": "bad name"], "cache.redis.tls.serverName:"),
    ])
    func badCombinationsAreRefusedNamingTheKey(_ env: [String: String], _ expected: String) {
        let found = problems(env)
        if expected.isEmpty {
            #expect(found.isEmpty, "\(found)")
        } else {
            #expect(found.contains { $0.hasPrefix(expected) || ($0.hasPrefix(expected.split(separator: ":")[0] + ":") && expected.hasSuffix(":")) }, "\(found)")
        }
        #expect(!found.joined().contains("pw-1234"))
    }

    @Test func checkConfigExitsTwoNamingTheKey() {
        let output = CapturedOutput()
        let status = AlmanacCLI.run(arguments: ["check-config"], environment: ["ALMANAC_CACHE_REDIS_URL": "redis://:pw-1234@h",
                                                                               "ALMANAC_CACHE_REDIS_SENTINELS": "h:26379",
                                                                               "ALMANAC_CACHE_REDIS_MASTER_NAME": "m"],
                                    output: output.output, fileReader: files([:]))
        #expect(status == 2)
        #expect(output.err.contains("cache.redis.sentinels: cannot be combined with cache.redis.url"), "\(output.err)")
        #expect(!(output.err + output.out).contains("pw-1234"))
    }
}

/// With Sentinel, `/readyz` and `/metrics` name the primary in use (and nothing while none is).
@Suite struct SharedCachePrimaryReportingTests {
    @Test func readinessAndMetricsNameThePrimaryWhileConnected() async {
        let primary = Mutex<String?>(nil)
        let router = AlmanacApp.makeRouter(operations: .init(isDraining: { false }, metrics: MetricsRegistry(), adminToken: nil,
                                                             cache: FakeCache(), sharedCacheUp: { primary.withLock { $0 } != nil },
                                                             sharedCachePrimary: { primary.withLock { $0 } }))
        #expect(await respond(router, "GET", "/readyz").text == #"{"status":"ready","l2":"down"}"#)
        primary.withLock { $0 = "10.0.0.21:6379" }
        #expect(await respond(router, "GET", "/readyz").text == #"{"status":"ready","l2":"up","l2primary":"10.0.0.21:6379"}"#)

        let registry = AlmanacMetrics.makeRegistry(.init(http: HTTPMetrics(), sharedCache: { SharedCacheStats() },
                                                         sharedCachePrimary: { primary.withLock { $0 } }))
        #expect(registry.render().contains("\nalmanac_cache_l2_primary{address=\"10.0.0.21:6379\"} 1\n"))
        primary.withLock { $0 = nil }
        let down = registry.render()
        #expect(down.contains("# TYPE almanac_cache_l2_primary gauge") && !down.contains("almanac_cache_l2_primary{"))
        #expect(!AlmanacMetrics.makeRegistry(.init(http: HTTPMetrics(), sharedCache: { SharedCacheStats() })).render()
            .contains("almanac_cache_l2_primary"))
    }
}
