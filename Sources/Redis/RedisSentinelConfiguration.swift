/// Where the primary is found when Redis runs behind Sentinel: the sentinels to ask and the name
/// they monitor the primary under. The primary's password and TLS settings are the client's own
/// (`RedisConfiguration.url`, `.tls`); the sentinels are spoken to in plain RESP, without a
/// password.
public struct RedisSentinelConfiguration: Sendable, Equatable {
    public var sentinels: [RedisEndpoint]
    public var masterName: String

    public init(sentinels: [RedisEndpoint], masterName: String) {
        self.sentinels = sentinels
        self.masterName = masterName
    }
}
