/// The typed commands the cache's shared layer needs: strings with expiry, deletion, scripts
/// (owner-token lock release), key scans and publishing.
extension RedisClient {
    public func ping() async throws(RedisError) {
        let reply = try await send(RedisCommand("PING"))
        guard reply.stringBytes == Array("PONG".utf8) else { throw .unexpectedReply("PING answered \(Self.kind(reply))") }
    }

    /// `GET key`: the value, or nil when the key does not exist.
    public func get(_ key: some RedisArgument) async throws(RedisError) -> [UInt8]? {
        let reply = try await send(RedisCommand("GET", key))
        if reply == .null { return nil }
        guard let bytes = reply.stringBytes else { throw .unexpectedReply("GET answered \(Self.kind(reply))") }
        return bytes
    }

    /// `SET key value [PX ms] [NX]`: true when the value was stored (false only with `onlyIfAbsent`
    /// when the key already existed).
    @discardableResult
    public func set(_ key: some RedisArgument, _ value: some RedisArgument, expireMilliseconds: Int? = nil,
                    onlyIfAbsent: Bool = false) async throws(RedisError) -> Bool {
        var arguments: [any RedisArgument] = [key, value]
        if let expireMilliseconds { arguments += ["PX", max(1, expireMilliseconds)] }
        if onlyIfAbsent { arguments.append("NX") }
        let reply = try await send(RedisCommand("SET", arguments))
        if reply == .null { return false }
        guard reply.stringBytes == Array("OK".utf8) else { throw .unexpectedReply("SET answered \(Self.kind(reply))") }
        return true
    }

    /// `DEL key…`: how many of the keys existed.
    @discardableResult
    public func delete(_ keys: [any RedisArgument]) async throws(RedisError) -> Int {
        guard !keys.isEmpty else { return 0 }
        return try await integer(RedisCommand("DEL", keys))
    }

    /// `PUBLISH channel message`: how many subscribers received it.
    @discardableResult
    public func publish(_ channel: some RedisArgument, _ message: some RedisArgument) async throws(RedisError) -> Int {
        try await integer(RedisCommand("PUBLISH", channel, message))
    }

    /// `EVAL script numkeys key… arg…`.
    public func eval(_ script: String, keys: [any RedisArgument] = [], arguments: [any RedisArgument] = []) async throws(RedisError) -> RESPValue {
        try await send(RedisCommand("EVAL", [script, keys.count] + keys + arguments))
    }

    /// `EVALSHA sha1 numkeys key… arg…`; throws `.server("NOSCRIPT …")` when Redis does not hold it.
    public func evalSHA(_ sha1: String, keys: [any RedisArgument] = [], arguments: [any RedisArgument] = []) async throws(RedisError) -> RESPValue {
        try await send(RedisCommand("EVALSHA", [sha1, keys.count] + keys + arguments))
    }

    /// `SCRIPT LOAD script`: the SHA-1 that `evalSHA` takes.
    public func loadScript(_ script: String) async throws(RedisError) -> String {
        let reply = try await send(RedisCommand("SCRIPT", "LOAD", script))
        guard let bytes = reply.stringBytes else { throw .unexpectedReply("SCRIPT LOAD answered \(Self.kind(reply))") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Runs `script` by its SHA-1 and, when Redis lost it (restart, `SCRIPT FLUSH`), by its source
    /// (which loads it again): one round trip in the common case.
    public func run(_ script: RedisScript, keys: [any RedisArgument] = [], arguments: [any RedisArgument] = []) async throws(RedisError) -> RESPValue {
        do {
            return try await evalSHA(script.sha1, keys: keys, arguments: arguments)
        } catch .server(let message) where message.hasPrefix("NOSCRIPT") {
            return try await eval(script.source, keys: keys, arguments: arguments)
        }
    }

    /// One `SCAN cursor [MATCH pattern] [COUNT n]` step: the next cursor (0 when done) and keys.
    /// Never `KEYS`: a scan step costs the server O(count), not O(keyspace).
    public func scan(cursor: UInt64, match: (any RedisArgument)? = nil, count: Int? = nil) async throws(RedisError) -> (cursor: UInt64, keys: [[UInt8]]) {
        var arguments: [any RedisArgument] = [cursor]
        if let match { arguments += ["MATCH", match] }
        if let count { arguments += ["COUNT", max(1, count)] }
        let reply = try await send(RedisCommand("SCAN", arguments))
        guard let parts = reply.elements, parts.count == 2,
              let cursorBytes = parts[0].stringBytes, let next = UInt64(String(decoding: cursorBytes, as: UTF8.self)),
              let keys = parts[1].elements else {
            throw .unexpectedReply("SCAN answered \(Self.kind(reply))")
        }
        var names: [[UInt8]] = []
        names.reserveCapacity(keys.count)
        for key in keys {
            guard let name = key.stringBytes else { throw .unexpectedReply("SCAN listed a \(Self.kind(key))") }
            names.append(name)
        }
        return (next, names)
    }

    /// Every key matching `pattern`, by as many `SCAN` steps as it takes.
    public func scanAll(match pattern: some RedisArgument, count: Int = 1000) async throws(RedisError) -> [[UInt8]] {
        var cursor: UInt64 = 0
        var keys: [[UInt8]] = []
        repeat {
            let step = try await scan(cursor: cursor, match: pattern, count: count)
            keys += step.keys
            cursor = step.cursor
        } while cursor != 0
        return keys
    }

    private func integer(_ command: RedisCommand) async throws(RedisError) -> Int {
        let reply = try await send(command)
        guard case .integer(let value) = reply else { throw .unexpectedReply("\(command.name) answered \(Self.kind(reply))") }
        return Int(value)
    }

    /// The kind of a reply, never its content (which may be a cached value).
    static func kind(_ value: RESPValue) -> String {
        switch value {
        case .simpleString: return "a simple string"
        case .error, .blobError: return "an error"
        case .integer: return "an integer"
        case .bulkString: return "a bulk string"
        case .null: return "null"
        case .array: return "an array"
        case .double: return "a double"
        case .boolean: return "a boolean"
        case .verbatimString: return "a verbatim string"
        case .bigNumber: return "a big number"
        case .map: return "a map"
        case .set: return "a set"
        case .push: return "a push"
        }
    }
}

/// A Lua script and its SHA-1, for `RedisClient.run`. The SHA-1 is what `SCRIPT LOAD` returned
/// (Redis computes it), so the client needs no hash of its own.
public struct RedisScript: Sendable, Equatable {
    public let source: String
    public let sha1: String

    /// Deletes `KEYS[1]` only while it still holds `ARGV[1]`: releasing a lock only by its owner
    /// (a lock that expired and was taken by another holder is left alone). Returns 1 or 0.
    public static let releaseIfOwnerSource = """
        if redis.call("GET", KEYS[1]) == ARGV[1] then
            return redis.call("DEL", KEYS[1])
        else
            return 0
        end
        """
}
