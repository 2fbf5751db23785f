import Base
import Foundation
import HTTP1
import Web

/// `GET /`: what someone who opens the bare URL (a person, a browser, a script exploring the
/// service) needs to find their way: the service's name, version and commit, links to the
/// OpenAPI document and the docs, and every endpoint this instance serves, by group.
///
/// Built once, when the routing table is complete, from that table and the OpenAPI document
/// (groups are its tags, in its order; each endpoint's summary is its operation's), so it
/// lists exactly what this instance answers: the admin group appears only when the admin API
/// is on, and a route the document does not describe still appears, under "other".
public enum ServiceIndex {
    public static let path = "/"

    /// Registers `GET /` over everything registered so far (call it last).
    public static func register(on router: inout Router) {
        let routes = router.routes.map { ($0.method, $0.pattern) } + [("GET", path)]
        let body = render(routes: routes)
        router.get(path, public: true) { _, _ in
            .ready(HTTPResponse.json(body, headers: ["Cache-Control": "no-store"]))
        }
    }

    /// Where the documentation lives.
    public static let docsURL = AlmanacVersion.projectURL + "/tree/main/docs"
    public static let readmeURL = AlmanacVersion.projectURL + "#readme"

    /// One operation of the OpenAPI document.
    private struct Operation {
        var path: String
        var tag: String
        var summary: String
    }

    static func render(routes: [(method: String, pattern: String)]) -> [UInt8] {
        let (tags, operations) = documented()
        var groups: [(name: String, description: String, endpoints: [(String, String, String)])] =
            tags.map { ($0.name, $0.description, []) }
        for (method, pattern) in routes {
            let operation = operations[key(method, pattern)]
            let entry = (method, operation?.path ?? pattern, operation?.summary ?? "")
            let tag = operation?.tag ?? "other"
            if let index = groups.firstIndex(where: { $0.name == tag }) {
                groups[index].endpoints.append(entry)
            } else {
                groups.append((tag, "Endpoints the OpenAPI document does not describe.", [entry]))
            }
        }
        var w = JSONWriter()
        w.raw("{")
        w.key("service", first: true); w.string("almanac")
        w.key("version"); w.string(AlmanacVersion.string)
        w.key("commit"); w.string(AlmanacVersion.commit)
        w.key("description"); w.string("Cached exchange rates and ISBN book lookups.")
        w.key("links"); w.raw("{")
        w.key("openapi", first: true); w.string("/openapi.json")
        w.key("docs"); w.string(docsURL)
        w.key("readme"); w.string(readmeURL)
        w.key("problems"); w.string(ProblemTypes.almanacDocumentation)
        w.raw("}")
        w.key("groups"); w.raw("[")
        for (g, group) in groups.filter({ !$0.endpoints.isEmpty }).enumerated() {
            w.raw(g == 0 ? "{" : ",{")
            w.key("name", first: true); w.string(group.name)
            w.key("description"); w.string(group.description)
            w.key("endpoints"); w.raw("[")
            for (n, (method, path, summary)) in group.endpoints.enumerated() {
                w.raw(n == 0 ? "{" : ",{")
                for (k, (key, value)) in [("method", method), ("path", path), ("summary", summary)].enumerated() {
                    w.key(key, first: k == 0); w.string(value)
                }
                w.raw("}")
            }
            w.raw("]}")
        }
        w.raw("]}")
        return w.bytes
    }

    /// The document's tags in order, and its operations by `key(method, path)`.
    private static func documented() -> (tags: [(name: String, description: String)], operations: [String: Operation]) {
        guard let doc = try? JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any] else {
            return ([], [:])
        }
        let tags = (doc["tags"] as? [[String: Any]] ?? []).compactMap { tag -> (String, String)? in
            guard let name = tag["name"] as? String else { return nil }
            return (name, tag["description"] as? String ?? "")
        }
        var operations: [String: Operation] = [:]
        for (path, item) in doc["paths"] as? [String: [String: Any]] ?? [:] {
            for (method, value) in item {
                guard let operation = value as? [String: Any] else { continue }
                let tag = (operation["tags"] as? [String])?.first ?? "other"
                operations[key(method.uppercased(), path)] =
                    Operation(path: path, tag: tag, summary: operation["summary"] as? String ?? "")
            }
        }
        return (tags, operations)
    }

    /// `GET /v1/rates/{}`: placeholder names do not matter, the shape does.
    private static func key(_ method: String, _ pattern: String) -> String {
        var out = method + " "
        var inside = false
        for scalar in pattern.unicodeScalars {
            if scalar == "{" { inside = true; out += "{}" } else if scalar == "}" { inside = false } else if !inside { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
