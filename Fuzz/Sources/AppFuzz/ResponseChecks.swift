// What every answer of the app must be, whatever the request held.
import Base
import FuzzSupport
import HTTP1
import Web
import Rates

enum ResponseChecks {
    /// The statuses a route of almanac may answer with (the contract's errors section).
    static let allowed: Set<Int> = [200, 204, 304, 400, 401, 404, 405, 413, 431, 502, 503, 504]

    static func check(_ response: HTTPResponse, for request: HTTPRequest) {
        let status = response.status.code
        let what = "\(request.method) \(request.target) → \(status)"
        FuzzSupport.check(allowed.contains(status), "unexpected status: \(what)")
        for field in response.headers {
            FuzzSupport.check(!field.name.isEmpty && field.name.utf8.allSatisfy(isTokenByte), "bad header name \(field.name): \(what)")
            FuzzSupport.check(!field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }),
                              "header \(field.name) carries CR, LF or NUL (response splitting): \(what)")
        }
        let contentType = response.headers["Content-Type"] ?? ""
        if status >= 400, request.path.utf8.starts(with: "/books/v1/".utf8) || request.path == "/books/v1" {
            checkGoogleError(response, status: status, contentType: contentType, what: what)
        } else if status >= 400 {
            FuzzSupport.check(contentType == "application/problem+json", "error without problem+json: \(what)")
            FuzzSupport.check(response.headers["Cache-Control"] != nil, "error without Cache-Control: \(what)")
            guard case let .object(problem)? = try? JSONParser.parse(response.body) else {
                FuzzSupport.check(false, "problem body is not a JSON object: \(what)")
                return
            }
            if case let .number(text)? = problem["status"] {
                FuzzSupport.check(text == String(status), "problem status \(text) differs from the response's: \(what)")
            } else {
                FuzzSupport.check(false, "problem without a numeric status: \(what)")
            }
            guard case let .string(detail)? = problem["detail"] else {
                FuzzSupport.check(false, "problem without a detail: \(what)")
                return
            }
            FuzzSupport.check(!detail.isEmpty, "empty problem detail: \(what)")
            // Echoed input is clipped: a 4 KiB request cannot come back as a 4 KiB detail.
            FuzzSupport.check(detail.utf8.count <= 2048, "problem detail of \(detail.utf8.count) bytes: \(what)")
            if case .string? = problem["type"], case .string? = problem["title"] {} else {
                FuzzSupport.check(false, "problem without type or title: \(what)")
            }
        } else if status == 200, contentType.hasPrefix("application/json") {
            FuzzSupport.check((try? JSONParser.parse(response.body)) != nil, "200 JSON body does not parse: \(what)")
        }
        if status == 304 || status == 204 {
            FuzzSupport.check(response.body.isEmpty, "\(status) with a body: \(what)")
        }
    }

    /// Errors under `/books/v1/` are in Google's envelope, as Google's client libraries read them:
    /// `{"error":{"code","message","errors":[{"message","domain","reason"}],"status"}}`.
    static func checkGoogleError(_ response: HTTPResponse, status: Int, contentType: String, what: String) {
        FuzzSupport.check(contentType.hasPrefix("application/json"), "Google-style error not JSON: \(what)")
        FuzzSupport.check(response.headers["Cache-Control"] != nil, "error without Cache-Control: \(what)")
        guard case let .object(root)? = try? JSONParser.parse(response.body), case let .object(error)? = root["error"] else {
            FuzzSupport.check(false, "error body is not Google's envelope: \(what)")
            return
        }
        if case let .number(code)? = error["code"] {
            FuzzSupport.check(code == String(status), "envelope code \(code) differs from the response's: \(what)")
        } else {
            FuzzSupport.check(false, "envelope without a numeric code: \(what)")
        }
        guard case let .string(message)? = error["message"], case .string? = error["status"],
              case let .array(errors)? = error["errors"], case let .object(first)? = errors.first,
              case .string? = first["reason"], case .string? = first["domain"] else {
            FuzzSupport.check(false, "envelope without message, status or errors[0]: \(what)")
            return
        }
        FuzzSupport.check(!message.isEmpty && message.utf8.count <= 2048, "envelope message of \(message.utf8.count) bytes: \(what)")
    }

    /// RFC 9110 §5.6.2 tchar.
    static func isTokenByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "!#$%&'*+-.^_`|~".utf8.contains(b)
    }
}
