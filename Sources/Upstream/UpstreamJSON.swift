import Base
import HTTPClient

/// The one way an upstream's JSON answer is read, for every provider of every domain: parsed
/// strictly by `JSONParser` (a duplicate member name, trailing data or bad UTF-8 escapes make
/// the answer malformed), then either walked as a `JSONValue` or decoded into the provider's
/// documented `Decodable` shape by `JSONValueDecoder`. Any failure is a 502-class
/// `UpstreamError` whose detail names the provider and the exact field, so an operator can
/// tell "Google changed `pageCount` to a string" from "the network is down".
public enum UpstreamJSON {
    /// The body as a JSON document, or a malformed-answer error saying where it broke.
    public static func parse(_ body: [UInt8], provider: String) throws(UpstreamError) -> JSONValue {
        do {
            return try JSONParser.parse(body)
        } catch {
            throw UpstreamError(.malformed, provider: provider, detail: "response is not JSON (\(error))")
        }
    }

    /// The body decoded into `type`, the provider's wire shape.
    public static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8], provider: String) throws(UpstreamError) -> T {
        let document = try parse(body, provider: provider)
        do {
            return try JSONValueDecoder().decode(T.self, from: document)
        } catch let error as DecodingError {
            throw UpstreamError(.malformed, provider: provider, detail: describe(error))
        } catch {
            throw UpstreamError(.malformed, provider: provider, detail: "undecodable body")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case let .typeMismatch(type, context):
            return "field \(path(context.codingPath)): expected \(name(of: type))"
        case let .valueNotFound(type, context):
            return "field \(path(context.codingPath)): expected \(name(of: type)), found null"
        case let .keyNotFound(key, context):
            return "field \(path(context.codingPath + [key])) is missing"
        case let .dataCorrupted(context):
            return "field \(path(context.codingPath)): invalid value"
        @unknown default:
            return "undecodable body"
        }
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        var out = ""
        for key in codingPath {
            if let index = key.intValue {
                out += "[\(index)]"
            } else {
                out += out.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return out.isEmpty ? "(root)" : out
    }

    private static func name(of type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type, is UInt64.Type, is Double.Type: return "a number"
        case is Bool.Type: return "a boolean"
        default:
            let text = String(describing: type)
            if text.hasPrefix("Array") { return "an array" }
            return "an object"
        }
    }
}
