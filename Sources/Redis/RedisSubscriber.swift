import Dispatch

/// A message published on a channel this subscriber listens to.
public struct RedisPubSubMessage: Sendable, Equatable {
    public var channel: [UInt8]
    public var payload: [UInt8]

    public init(channel: [UInt8], payload: [UInt8]) {
        self.channel = channel
        self.payload = payload
    }
}

/// Pub/sub on a dedicated connection (RESP3: messages arrive as pushes).
///
/// `subscribe` returns once Redis confirmed every channel (or fails within the timeout).
/// The subscriber keeps its channel set: after a reconnect it subscribes to all of them again
/// before anything else, and `onMessage` keeps receiving. Messages published while the
/// connection was down are lost (pub/sub has no history): `onAvailabilityChange(true)` after a
/// `false` tells the user to resynchronize whatever the messages maintained (a cache drops its L1).
/// The connection is `PING`ed when idle, so a dead or stalled server is noticed without traffic.
public final class RedisSubscriber: Sendable {
    public let configuration: RedisConfiguration
    private let core: RedisClientCore
    private let state: State

    /// Channels and waiters, confined to the core's queue.
    private final class State: @unchecked Sendable {
        var channels: Set<[UInt8]> = []
        var confirmed: Set<[UInt8]> = []
        var waiters: [UInt64: (channels: Set<[UInt8]>, done: @Sendable (Result<Void, RedisError>) -> Void)] = [:]
        var nextWaiter: UInt64 = 0
    }

    /// `onMessage` runs on the subscriber's queue for every message, in order; keep it short.
    public init(configuration: RedisConfiguration,
                onMessage: @escaping @Sendable (RedisPubSubMessage) -> Void,
                onAvailabilityChange: (@Sendable (Bool) -> Void)? = nil) {
        self.configuration = configuration
        let core = RedisClientCore(configuration: configuration, label: "almanac.redis.subscriber")
        let state = State()
        self.core = core
        self.state = state
        core.queue.sync {
            core.pushHandler = { [unowned core] push in
                Self.handle(push, state: state, core: core, onMessage: onMessage)
            }
            core.readyHandler = { [unowned core] in
                state.confirmed = []
                if !state.channels.isEmpty {
                    core.writeUntracked(RedisCommand("SUBSCRIBE", Array(state.channels).sorted { $0.lexicographicallyPrecedes($1) }))
                }
            }
            core.availabilityHandler = { up in
                if !up { state.confirmed = [] }
                onAvailabilityChange?(up)
            }
        }
        core.start()
    }

    deinit {
        core.shutdown()
    }

    public func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            core.shutdown { continuation.resume() }
        }
    }

    /// Subscribes to `channels`; returns when Redis has confirmed all of them. Throws
    /// `.timeout` when that takes longer than `timeoutMilliseconds` (the channels stay in the set
    /// and are subscribed on the next connection) or `.shutDown`.
    public func subscribe(_ channels: [any RedisArgument]) async throws(RedisError) {
        let wanted = Set(channels.map(\.redisBytes))
        guard !wanted.isEmpty else { return }
        let result: Result<Void, RedisError> = await withCheckedContinuation { continuation in
            let done: @Sendable (Result<Void, RedisError>) -> Void = { continuation.resume(returning: $0) }
            core.queue.async { [core, state] in
                state.channels.formUnion(wanted)
                let missing = wanted.subtracting(state.confirmed)
                guard !missing.isEmpty else { return done(.success(())) }
                state.nextWaiter &+= 1
                let id = state.nextWaiter
                state.waiters[id] = (missing, done)
                core.writeUntracked(RedisCommand("SUBSCRIBE", Array(missing).sorted { $0.lexicographicallyPrecedes($1) }))
                core.queue.asyncAfter(deadline: .now() + .milliseconds(core.configuration.timeoutMilliseconds)) {
                    state.waiters.removeValue(forKey: id)?.done(.failure(.timeout))
                }
            }
        }
        try result.get()
    }

    /// True while the connection is ready and every channel is confirmed. Not from `onMessage`
    /// or `onAvailabilityChange` (it waits for the subscriber's queue, where those run).
    public var isSubscribed: Bool {
        core.queue.sync { core.isUp && state.confirmed.isSuperset(of: state.channels) }
    }

    /// A push: a message, or a (un)subscribe confirmation.
    private static func handle(_ push: RESPValue, state: State, core: RedisClientCore,
                               onMessage: @Sendable (RedisPubSubMessage) -> Void) {
        guard let items = push.elements, let kind = items.first?.stringBytes else { return }
        switch String(decoding: kind, as: UTF8.self) {
        case "message":
            guard items.count == 3, let channel = items[1].stringBytes, let payload = items[2].stringBytes else { return }
            onMessage(RedisPubSubMessage(channel: channel, payload: payload))
        case "subscribe":
            guard items.count >= 2, let channel = items[1].stringBytes else { return }
            state.confirmed.insert(channel)
            for (id, waiter) in state.waiters where waiter.channels.isSubset(of: state.confirmed) {
                state.waiters.removeValue(forKey: id)?.done(.success(()))
            }
        default:
            break
        }
    }
}
