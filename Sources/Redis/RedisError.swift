import Base

/// Why a Redis call failed. Every call ends in a value or exactly one of these, within its
/// timeout. No case ever carries the password: reasons are written by the client, and server
/// error texts have any occurrence of the configured password masked before they are stored.
public enum RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The call's deadline (`timeoutMilliseconds`) passed before its reply arrived.
    case timeout
    /// No connection: the client is waiting to reconnect after a failure (the reason is the
    /// last failure), so the call failed at once instead of queueing.
    case unavailable(String)
    /// The connection broke (closed, reset, protocol error, a slow reply) while the call was
    /// written or waiting for its reply; the command may or may not have run.
    case connectionLost(String)
    /// Redis answered with an error reply (`-ERR …`, `-WRONGPASS …`, `!…`).
    case server(String)
    /// The reply was not of the kind the typed call expects (e.g. GET answering an integer).
    case unexpectedReply(String)
    /// The client was shut down.
    case shutDown

    public var description: String {
        switch self {
        case .timeout: return "redis: timed out"
        case .unavailable(let reason): return "redis: unavailable (\(reason))"
        case .connectionLost(let reason): return "redis: connection lost (\(reason))"
        case .server(let message): return "redis: \(message)"
        case .unexpectedReply(let what): return "redis: unexpected reply: \(what)"
        case .shutDown: return "redis: client shut down"
        }
    }

    /// An error reply's text, with `secret` (the password) masked wherever it appears: a server
    /// that does not know `HELLO` echoes its arguments, AUTH included.
    static func server(_ bytes: [UInt8], masking secret: [UInt8]?) -> RedisError {
        .server(String(decoding: secret.map { Redactor.replacing($0, in: bytes) } ?? bytes, as: UTF8.self))
    }
}
