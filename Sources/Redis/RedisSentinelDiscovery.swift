/// Which primary to connect to, from what the sentinels say: the logic of Sentinel discovery
/// with no sockets (the driver, `RedisSentinelLocator`, does the asking and feeds the answers
/// in), so every rule is unit-tested.
///
/// - A lookup asks the sentinels one after the other (`SENTINEL get-master-addr-by-name`) until
///   one names the primary; a sentinel that answers is moved to the front, so the next lookup
///   asks a sentinel known to work first (as redis-py does). When none does, the lookup fails
///   with every sentinel's reason.
/// - The primary found is kept until the connection to it fails (`forgetPrimary`): a failed
///   connection, a `ROLE` that is not `master`, a `READONLY` reply. The next lookup asks again.
/// - A `+switch-master` message for this master name replaces the primary at once.
/// - Nothing a sentinel says is trusted blindly: replies of the wrong shape, ports out of range
///   and hosts that are not a host are a failed answer, never an address.
struct RedisSentinelDiscovery: Sendable {
    let masterName: String
    /// The order in which to ask; the last sentinel that answered first.
    private(set) var sentinels: [RedisEndpoint]
    /// The primary to use, or nil when the next connection must look it up.
    private(set) var primary: RedisEndpoint?
    /// Why the asking so far failed, one reason per sentinel asked.
    private var reasons: [String] = []

    enum Step: Sendable, Equatable {
        /// Ask the sentinel at this position of `sentinels`.
        case ask(Int)
        /// Connect to this primary.
        case use(RedisEndpoint)
        /// No sentinel named a primary (every reason, joined).
        case failed(String)
    }

    init(configuration: RedisSentinelConfiguration) {
        masterName = configuration.masterName
        sentinels = configuration.sentinels
    }

    /// Starts a lookup: the primary known already, or the first sentinel to ask.
    mutating func lookup() -> Step {
        if let primary { return .use(primary) }
        reasons = []
        return sentinels.isEmpty ? .failed("no sentinels configured") : .ask(0)
    }

    /// The sentinel at `index` replied `reply` to `SENTINEL get-master-addr-by-name`.
    mutating func answered(_ index: Int, reply: RESPValue) -> Step {
        guard sentinels.indices.contains(index) else { return .failed("no such sentinel") }
        let sentinel = sentinels[index]
        switch Self.address(in: reply) {
        case .success(let address):
            sentinels.remove(at: index)
            sentinels.insert(sentinel, at: 0)
            primary = address
            return .use(address)
        case .failure(let reason):
            return next(after: index, reason: "\(sentinel): \(reason.reason)")
        }
    }

    /// The sentinel at `index` could not be asked (down, timed out).
    mutating func unreachable(_ index: Int, reason: String) -> Step {
        guard sentinels.indices.contains(index) else { return .failed("no such sentinel") }
        return next(after: index, reason: "\(sentinels[index]): \(reason)")
    }

    /// The connection to the primary failed or it is not the primary any more: look it up again.
    mutating func forgetPrimary() {
        primary = nil
    }

    /// A `+switch-master` message (`<name> <old-ip> <old-port> <new-ip> <new-port>`): the new
    /// primary when it is about this master name and differs from the one in use, else nil.
    mutating func switchMaster(_ payload: [UInt8]) -> RedisEndpoint? {
        let fields = payload.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard fields.count == 5, Array(fields[0]) == Array(masterName.utf8),
              let address = Self.endpoint(host: Array(fields[3]), port: Array(fields[4])) else { return nil }
        guard address != primary else { return nil }
        primary = address
        return address
    }

    /// True when a `ROLE` reply says the server is a primary (`["master", offset, replicas]`).
    static func isPrimary(role reply: RESPValue) -> Bool {
        reply.elements?.first?.stringBytes == Array("master".utf8)
    }

    /// True for an error reply meaning "this server is a replica now" (after a failover the old
    /// primary comes back as one): the client must find the primary again.
    static func isReadOnly(_ error: [UInt8]) -> Bool {
        error.starts(with: Array("READONLY".utf8))
    }

    // MARK: - Internals

    private mutating func next(after index: Int, reason: String) -> Step {
        reasons.append(reason)
        if index + 1 < sentinels.count { return .ask(index + 1) }
        return .failed("no sentinel named the primary of \(masterName) (\(reasons.joined(separator: "; ")))")
    }

    /// The `[ip, port]` of a `get-master-addr-by-name` reply.
    static func address(in reply: RESPValue) -> Result<RedisEndpoint, DiscoveryFailure> {
        if reply == .null { return .failure(DiscoveryFailure("does not know this master name")) }
        if reply.errorBytes != nil { return .failure(DiscoveryFailure("answered an error")) }
        guard let items = reply.elements, items.count == 2,
              let host = items[0].stringBytes, let port = items[1].stringBytes,
              let endpoint = endpoint(host: host, port: port) else {
            return .failure(DiscoveryFailure("answered something that is not an address"))
        }
        return .success(endpoint)
    }

    /// A host and port from a sentinel, checked like an operator's `host:port`.
    private static func endpoint(host: [UInt8], port: [UInt8]) -> RedisEndpoint? {
        guard !host.isEmpty, host.count <= 253, !port.isEmpty, port.count <= 5,
              port.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let hostText = String(decoding: host, as: UTF8.self)
        let portText = String(decoding: port, as: UTF8.self)
        return RedisEndpoint(parsing: hostText.contains(":") ? "[\(hostText)]:\(portText)" : "\(hostText):\(portText)")
    }

    struct DiscoveryFailure: Error, Equatable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
