import Base
import Foundation
import HTTP1
import Web
import Redis

/// One operator-settable key: its dotted path, its environment variable, what it accepts,
/// and how it reads and writes `AlmanacConfiguration`. The table in `all` drives the JSON
/// file, the environment, `check-config` output and the tests, so a key cannot be added to
/// one of them and forgotten in another.
struct ConfigurationKey {
    /// Dotted path as in the JSON file, e.g. `server.maxConnections`.
    let path: String
    /// The "expected …" half of an error message.
    let expected: String
    /// Secrets are never echoed in errors and are printed as `***` by `check-config`.
    let isSecret: Bool
    /// Applies the value; false when it has the wrong type or is out of range.
    let apply: (inout AlmanacConfiguration, ConfigurationInput) -> Bool
    /// The current value as a JSON object for `check-config` (NSNull when unset).
    let render: (AlmanacConfiguration) -> Any

    /// `ALMANAC_` + the path in upper snake case: `server.maxConnections` →
    /// `ALMANAC_SERVER_MAX_CONNECTIONS`, `books.googleBooks.apiKey` →
    /// `ALMANAC_BOOKS_GOOGLE_BOOKS_API_KEY`.
    var environmentName: String {
        var out = "ALMANAC_"
        for ch in path {
            if ch == "." {
                out.append("_")
            } else if ch.isUppercase {
                out.append("_")
                out.append(ch)
            } else {
                out.append(contentsOf: ch.uppercased())
            }
        }
        return out
    }

    // MARK: builders

    static func integer(_ path: String, _ kp: WritableKeyPath<AlmanacConfiguration, Int>,
                        _ range: ClosedRange<Int>) -> ConfigurationKey {
        ranged(path, kp, range, expected: "an integer \(range.lowerBound)–\(range.upperBound)") { $0.integer }
    }

    /// A value `read` from the input, accepted only within `range`: the one rule behind
    /// `integer` and `number`.
    private static func ranged<Value: Comparable>(_ path: String, _ kp: WritableKeyPath<AlmanacConfiguration, Value>,
                                                  _ range: ClosedRange<Value>, expected: String,
                                                  read: @escaping (ConfigurationInput) -> Value?) -> ConfigurationKey {
        ConfigurationKey(
            path: path, expected: expected, isSecret: false,
            apply: { config, input in
                guard let v = read(input), range.contains(v) else { return false }
                config[keyPath: kp] = v
                return true
            },
            render: { $0[keyPath: kp] })
    }

    /// A duration or lifetime in seconds; fractions allowed (tests use short ones).
    static func seconds(_ path: String, _ kp: WritableKeyPath<AlmanacConfiguration, Double>,
                        allowZero: Bool = false, max: Double = 31_536_000) -> ConfigurationKey {
        let lower = allowZero ? "≥ 0" : "> 0"
        return ConfigurationKey(
            path: path, expected: "a number of seconds \(lower) and ≤ \(Int(max))", isSecret: false,
            apply: { config, input in
                guard let v = input.double, allowZero ? v >= 0 : v > 0, v <= max else { return false }
                config[keyPath: kp] = v
                return true
            },
            render: { $0[keyPath: kp] })
    }

    /// A number within `range`; fractions allowed (a percentage).
    static func number(_ path: String, _ kp: WritableKeyPath<AlmanacConfiguration, Double>,
                       _ range: ClosedRange<Double>) -> ConfigurationKey {
        ranged(path, kp, range, expected: "a number from \(range.lowerBound) to \(range.upperBound)") { $0.double }
    }

    /// A non-negative number (a rate); fractions allowed (0.2 = 12 a minute).
    static func rate(_ path: String, _ kp: WritableKeyPath<AlmanacConfiguration, Double>,
                     max: Double = 1_000_000) -> ConfigurationKey {
        ConfigurationKey(
            path: path, expected: "a number ≥ 0 and ≤ \(Int(max)) (0 = no budget)", isSecret: false,
            apply: { config, input in
                guard let v = input.double, v >= 0, v <= max else { return false }
                config[keyPath: kp] = v
                return true
            },
            render: { $0[keyPath: kp] })
    }

    static func string(_ path: String, _ kp: WritableKeyPath<AlmanacConfiguration, String>,
                       expected: String, valid: @escaping (String) -> Bool) -> ConfigurationKey {
        ConfigurationKey(
            path: path, expected: expected, isSecret: false,
            apply: { config, input in
                guard let v = input.string, valid(v) else { return false }
                config[keyPath: kp] = v
                return true
            },
            render: { $0[keyPath: kp] })
    }

    /// `true` / `false` (JSON booleans; in the environment also `1` / `0`, `yes` / `no`).
    static func boolean(_ path: String, _ kp: WritableKeyPath<AlmanacConfiguration, Bool>) -> ConfigurationKey {
        ConfigurationKey(
            path: path, expected: "true or false", isSecret: false,
            apply: { config, input in
                guard let v = input.boolean else { return false }
                config[keyPath: kp] = v
                return true
            },
            render: { $0[keyPath: kp] })
    }

    static func url(_ path: String, _ kp: WritableKeyPath<AlmanacConfiguration, String>) -> ConfigurationKey {
        string(path, kp, expected: "an http:// or https:// URL with a host and no query", valid: ConfigurationKey.isBaseURL)
    }

    /// An optional string; JSON `null`, or an empty value, means "not set".
    static func optional(_ path: String, _ kp: WritableKeyPath<AlmanacConfiguration, String?>,
                         secret: Bool, expected: String, valid: @escaping (String) -> Bool) -> ConfigurationKey {
        ConfigurationKey(
            path: path, expected: expected, isSecret: secret,
            apply: { config, input in
                guard let v = input.optionalString else { return false }
                if let s = v, !valid(s) { return false }
                config[keyPath: kp] = v
                return true
            },
            render: { config in
                guard let v = config[keyPath: kp] else { return NSNull() }
                return secret ? Redactor.mask : v
            })
    }

    /// An optional Redis URL (`RedisURL`'s grammar); a secret, rendered with its password masked.
    static func redisURL(_ path: String, _ kp: WritableKeyPath<AlmanacConfiguration, String?>) -> ConfigurationKey {
        ConfigurationKey(
            path: path, expected: "redis://[user:password@]host[:port][/db] or rediss://… (TLS), without query or fragment, or null",
            isSecret: true,
            apply: { config, input in
                guard let v = input.optionalString else { return false }
                if let s = v, (try? RedisURL(parsing: s)) == nil { return false }
                config[keyPath: kp] = v
                return true
            },
            render: { config in
                guard let v = config[keyPath: kp] else { return NSNull() }
                return (try? RedisURL(parsing: v)).map { "\($0)" } ?? Redactor.mask
            })
    }

    /// Sentinel addresses: a list (possibly empty) of distinct `host:port` (`RedisEndpoint`).
    static func redisSentinels(_ path: String, _ kp: WritableKeyPath<AlmanacConfiguration, [String]>) -> ConfigurationKey {
        ConfigurationKey(
            path: path, expected: "a list of distinct host:port sentinel addresses (an IPv6 host in brackets), at most 16",
            isSecret: false,
            apply: { config, input in
                guard let v = input.stringList, v.count <= 16, Set(v).count == v.count,
                      v.allSatisfy({ RedisEndpoint(parsing: $0) != nil }) else { return false }
                config[keyPath: kp] = v
                return true
            },
            render: { $0[keyPath: kp] })
    }

    /// A non-empty list of distinct names from `allowed`, in the order they are tried.
    /// A list of distinct provider ids from `allowed`; empty only with `allowEmpty` (a feature
    /// that an empty list turns off, such as the price index).
    static func providers(_ path: String, _ kp: WritableKeyPath<AlmanacConfiguration, [String]>,
                          allowed: [String], allowEmpty: Bool = false) -> ConfigurationKey {
        ConfigurationKey(
            path: path,
            expected: "a \(allowEmpty ? "possibly empty" : "non-empty") list of distinct providers from \(allowed.joined(separator: ", "))",
            isSecret: false,
            apply: { config, input in
                guard let v = input.stringList, allowEmpty || !v.isEmpty, Set(v).count == v.count,
                      v.allSatisfy(allowed.contains) else { return false }
                config[keyPath: kp] = v
                return true
            },
            render: { $0[keyPath: kp] })
    }

    /// CORS origins: `["*"]` alone, or a list (possibly empty) of distinct
    /// `scheme://host[:port]` origins, stored in the form browsers send (`CORSPolicy`).
    static func origins(_ path: String, _ kp: WritableKeyPath<AlmanacConfiguration, [String]>) -> ConfigurationKey {
        ConfigurationKey(
            path: path,
            expected: "[\"*\"] for any origin, or a list of origins such as https://app.example.com "
                + "(http or https, a host and an optional port; no path, not even a trailing slash)",
            isSecret: false,
            apply: { config, input in
                guard let v = input.stringList else { return false }
                if v == ["*"] {
                    config[keyPath: kp] = v
                    return true
                }
                let normalized = v.compactMap(CORSPolicy.normalizedOrigin)
                guard normalized.count == v.count, Set(normalized).count == normalized.count else { return false }
                config[keyPath: kp] = normalized
                return true
            },
            render: { $0[keyPath: kp] })
    }

    static func choice<E: RawRepresentable & CaseIterable>(
        _ path: String, _ kp: WritableKeyPath<AlmanacConfiguration, E>
    ) -> ConfigurationKey where E.RawValue == String {
        ConfigurationKey(
            path: path, expected: "one of " + E.allCases.map(\.rawValue).joined(separator: ", "), isSecret: false,
            apply: { config, input in
                guard let s = input.string, let v = E(rawValue: s) else { return false }
                config[keyPath: kp] = v
                return true
            },
            render: { $0[keyPath: kp].rawValue })
    }

    // MARK: validators

    /// A file path as written in the configuration: printable, no NUL, at most 4096 bytes
    /// (whether it can be read is checked once every key is known).
    static func isFilePath(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.count <= 4096 && s.unicodeScalars.allSatisfy { $0.value >= 32 && $0.value != 127 }
    }

    /// `http(s)://host[:port][/path]`: base URLs are joined with fixed paths, so a query or
    /// fragment would corrupt every request.
    /// Userinfo (`user:password@`) is refused: almanac never sends credentials in a URL, and
    /// one in the configuration would be a secret printed wherever the URL is. Only printable
    /// ASCII without spaces: a CR LF or a space would make every request fail at run time
    /// (or, joined into a request line, split it), so it is refused at start-up instead.
    static func isBaseURL(_ s: String) -> Bool {
        guard isToken(s), let c = URLComponents(string: s), let scheme = c.scheme.map({ ASCIICase.lowercased($0.utf8) }),
              scheme == "http" || scheme == "https",
              let host = c.host, !host.isEmpty,
              c.query == nil, c.fragment == nil, c.user == nil, c.password == nil,
              !(c.percentEncodedHost ?? "").contains("@"),
              !s.utf8.contains(UInt8(ascii: "@")) else { return false }
        return true
    }

    /// Printable ASCII without spaces: the value travels in an HTTP header or a URL.
    static func isToken(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// Printable ASCII, spaces allowed, no CR/LF (header injection).
    static func isHeaderValue(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// A host name or IP literal to bind to.
    static func isHost(_ s: String) -> Bool {
        !s.isEmpty && s.count <= 253 && s.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "-") || b == UInt8(ascii: ":") || b == UInt8(ascii: "%")
        }
    }
}
