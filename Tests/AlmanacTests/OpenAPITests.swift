import Foundation
import HTTP1
import Testing
@testable import Almanac

@Suite struct OpenAPITests {
    /// Routes the rates and books features register (their branches own them); once the
    /// production router registers them, `productionRoutes` covers them and this list only
    /// has to agree.
    static let featureRoutes: [(String, String)] = [
        ("GET", "/v1/rates"), ("GET", "/v1/rates/{code}"), ("GET", "/v1/convert"), ("GET", "/v1/currencies"),
        ("GET", "/v1/bpi/currentprice.json"), ("GET", "/v1/bpi/currentprice/{code}.json"),
        ("GET", "/v1/bpi/supported-currencies.json"),
        ("GET", "/v1/books"), ("GET", "/v1/books/{isbn}"), ("GET", "/v1/books/{isbn}/cover"), ("GET", "/books/v1/volumes"),
        ("GET", "/books/v1/volumes/{id}"), ("GET", "/v1/books/search"),
    ]

    /// `{anything}` → `{}`: placeholder names are the implementer's choice, the shape is not.
    static func normalize(_ method: String, _ pattern: String) -> String {
        var out = ""
        var inside = false
        for ch in pattern {
            if ch == "{" { inside = true; out.append("{}") } else if ch == "}" { inside = false } else if !inside { out.append(ch) }
        }
        return method.uppercased() + " " + out
    }

    private func documentOperations() throws -> Set<String> {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any])
        #expect(doc["openapi"] as? String == "3.1.0")
        let paths = try #require(doc["paths"] as? [String: [String: Any]])
        var out: Set<String> = []
        for (path, item) in paths {
            for method in item.keys where ["get", "put", "post", "delete", "patch", "head", "options"].contains(method) {
                out.insert(Self.normalize(method, path))
            }
        }
        return out
    }

    /// The embedded file's placeholders are this build's version and project address, and none is left.
    @Test func namesThisBuildsVersionAndProject() throws {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any])
        let info = try #require(doc["info"] as? [String: Any])
        #expect(info["version"] as? String == AlmanacVersion.string)
        #expect((doc["externalDocs"] as? [String: Any])?["url"] as? String == AlmanacVersion.projectURL)
        #expect(!OpenAPIDocument.json.contains("{{"))
    }

    /// The production route table (`AlmanacPlugins.standard`) with the admin API on. While no
    /// feature is plugged into `standard` yet, the features' patterns come from
    /// `featureRoutes`; as soon as one is, the real table is compared as is, so a route that
    /// is documented but not registered (or the reverse) fails the test.
    private func productionRoutes() -> Set<String> {
        var config = AlmanacConfiguration()
        config.server.adminToken = "token-for-the-openapi-test"
        let app = AlmanacApp(configuration: config, plugins: .standard, logSink: MemoryLogSink())
        var routes = Set(app.router.routes.map { Self.normalize($0.method, $0.pattern) })
        let featuresWired = routes.contains { $0.contains(" /v1/") || $0.contains(" /books/") }
        if !featuresWired {
            routes.formUnion(Self.featureRoutes.map { Self.normalize($0.0, $0.1) })
        }
        return routes
    }

    @Test func documentAndRouterAgreeExactly() throws {
        let documented = try documentOperations()
        let routed = productionRoutes()
        #expect(documented.subtracting(routed).isEmpty, "documented but not routed: \(documented.subtracting(routed).sorted())")
        #expect(routed.subtracting(documented).isEmpty, "routed but not documented: \(routed.subtracting(documented).sorted())")
    }

    @Test func everyReferenceResolves() throws {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any])
        var refs: [String] = []
        func collect(_ v: Any) {
            if let d = v as? [String: Any] {
                if let r = d["$ref"] as? String { refs.append(r) }
                d.values.forEach(collect)
            } else if let a = v as? [Any] {
                a.forEach(collect)
            }
        }
        collect(doc)
        #expect(!refs.isEmpty)
        for ref in refs {
            var node: Any? = doc
            for part in ref.dropFirst(2).split(separator: "/") {
                node = (node as? [String: Any])?[String(part)]
            }
            #expect(node != nil, "unresolved \(ref)")
        }
        let problem = try #require(((doc["components"] as? [String: Any])?["schemas"] as? [String: Any])?["Problem"] as? [String: Any])
        #expect(problem["required"] as? [String] == ["type", "title", "status", "detail"])
    }

    /// Every ISBN parameter declares the custom `format` that scripts/schemathesis_hooks.py
    /// generates valid ISBNs for, and keeps a pattern for tools that ignore the format: a
    /// pattern alone cannot express the check digit that the server checks (400 when wrong).
    @Test func isbnParametersDeclareTheirFormat() throws {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any])
        let components = try #require(doc["components"] as? [String: Any])
        let parameters = try #require(components["parameters"] as? [String: Any])
        let isbn = try #require((parameters["isbn"] as? [String: Any])?["schema"] as? [String: Any])
        #expect(isbn["format"] as? String == "isbn")
        #expect(isbn["pattern"] is String)
    }

    /// Cover bytes are binary: the media type carries no JSON schema (OAS 3.1), so a response
    /// validator does not hold image bytes against `type: string`.
    @Test func coversHaveNoSchema() throws {
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.bytes)) as? [String: Any])
        let paths = try #require(doc["paths"] as? [String: [String: Any]])
        let cover = try #require(paths["/v1/books/{isbn}/cover"]?["get"] as? [String: Any])
        let ok = try #require((cover["responses"] as? [String: Any])?["200"] as? [String: Any])
        let content = try #require(ok["content"] as? [String: Any])
        #expect(content.keys.sorted() == ["image/gif", "image/jpeg", "image/png", "image/webp"],
                "the four types a cover is sniffed as: \(content.keys.sorted())")
        for (type, media) in content {
            #expect((media as? [String: Any])?.isEmpty == true, "\(type): \(media)")
        }
    }

    /// The served document passes `openapi-spec-validator` (pip; make test installs it).
    @Test func passesOpenAPISpecValidator() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-openapi-\(getpid()).json")
        try Data(OpenAPIDocument.bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-openapi-\(getpid()).py")
        try Data("""
        import json, sys
        from openapi_spec_validator import validate
        validate(json.load(open(sys.argv[1])))
        print("valid")
        """.utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        let result = try await PythonScript.run(script, arguments: [file.path], environment: [:], timeout: 60)
        #expect(result.status == 0 && result.output.contains("valid"), "openapi-spec-validator:\n\(result.output)")
    }

    @Test func servedAsJSON() async {
        let router = AlmanacApp.makeRouter(operations: .init(isDraining: { false }, metrics: MetricsRegistry(), adminToken: nil, cache: FakeCache()))
        let response = await respond(router, "GET", "/openapi.json")
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(response.body == OpenAPIDocument.bytes)
    }
}
