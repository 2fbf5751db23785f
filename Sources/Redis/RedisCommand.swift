/// One Redis command: its name and arguments as binary-safe byte strings.
///
/// `description` names the command and counts its arguments but never shows them: arguments
/// hold keys, values and, for `HELLO … AUTH`, the password.
public struct RedisCommand: Sendable, Equatable, CustomStringConvertible {
    public var arguments: [[UInt8]]

    public init(arguments: [[UInt8]]) {
        self.arguments = arguments
    }

    /// `RedisCommand("SET", key, value, "PX", 100)`.
    public init(_ name: String, _ arguments: any RedisArgument...) {
        self.init(name, arguments)
    }

    public init(_ name: String, _ arguments: [any RedisArgument]) {
        var all: [[UInt8]] = [Array(name.utf8)]
        all.reserveCapacity(arguments.count + 1)
        for argument in arguments { all.append(argument.redisBytes) }
        self.arguments = all
    }

    /// The command name, upper-cased ASCII, for logs and errors.
    public var name: String {
        guard let first = arguments.first else { return "" }
        return String(decoding: first.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }

    public var description: String { "\(name) (\(max(0, arguments.count - 1)) arguments)" }

    /// The command in wire form.
    public func encoded(into out: inout [UInt8]) {
        RESPEncoder.appendCommand(arguments, to: &out)
    }
}

/// A value that can be a command argument: text as UTF-8, integers in decimal, bytes as is.
public protocol RedisArgument: Sendable {
    var redisBytes: [UInt8] { get }
}

extension String: RedisArgument {
    public var redisBytes: [UInt8] { Array(utf8) }
}

extension Substring: RedisArgument {
    public var redisBytes: [UInt8] { Array(utf8) }
}

extension Int: RedisArgument {
    public var redisBytes: [UInt8] { Array(String(self).utf8) }
}

extension UInt64: RedisArgument {
    public var redisBytes: [UInt8] { Array(String(self).utf8) }
}

extension Array: RedisArgument where Element == UInt8 {
    public var redisBytes: [UInt8] { self }
}
