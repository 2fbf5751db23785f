import Foundation
import HTTPClient

/// Decodes an upstream body into its documented shape, turning any mismatch into a 502-class
/// `UpstreamError` whose detail names the provider and the exact field, so an operator can
/// tell "Google changed `pageCount` to a string" from "the network is down".
enum ProviderJSON {
    static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8], provider: String) throws(UpstreamError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
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
            return context.codingPath.isEmpty
                ? "body is not JSON"
                : "field \(path(context.codingPath)): invalid value"
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
        case is Int.Type, is Double.Type: return "a number"
        case is Bool.Type: return "a boolean"
        default:
            let text = String(describing: type)
            if text.hasPrefix("Array") { return "an array" }
            if text.hasPrefix("Dictionary") { return "an object" }
            return "an object"
        }
    }
}
