import Foundation
import HTTPServer
import Testing
@testable import Almanac

/// The operator docs are part of the contract: every key and problem type must be there.
@Suite struct DocumentationTests {
    private func read(_ path: String) throws -> String {
        try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func operationsGuideListsEveryKeyWithItsEnvironmentVariable() throws {
        let doc = try read("docs/operations.md")
        for key in ConfigurationKey.all {
            #expect(doc.contains("| `\(key.path)` |"), "docs/operations.md lacks \(key.path)")
            #expect(doc.contains("`\(key.environmentName)`"), "docs/operations.md lacks \(key.environmentName)")
        }
    }

    @Test func problemsGuideHasASectionPerSlug() throws {
        let doc = try read("docs/problems.md")
        #expect(Problem.typeBase.hasSuffix("docs/problems.md#"))
        for slug in ["not-found", "invalid-isbn", "invalid-currency", "invalid-amount", "upstream-failed",
                     "upstream-timeout", "overloaded", "draining", "unauthorized", "bad-request",
                     // used by the rates and books features:
                     "invalid-currency-code", "unknown-currency", "invalid-symbols", "missing-parameter",
                     "book-not-found", "cover-not-found", "cancelled"] {
            #expect(doc.contains("\n## \(slug)\n"), "docs/problems.md lacks ## \(slug)")
        }
    }

    /// Every `slug: "…"` anywhere in Sources/ (whatever features are merged) has a section.
    @Test func everySlugInTheSourcesIsDocumented() throws {
        let doc = try read("docs/problems.md")
        let sources = repositoryRoot.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(!files.isEmpty)
        var slugs: Set<String> = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            var rest = text[...]
            while let range = rest.range(of: "slug: \"") {
                let tail = rest[range.upperBound...]
                let slug = tail.prefix { $0 != "\"" }
                if !slug.isEmpty, slug.allSatisfy({ $0.isLowercase || $0 == "-" }) { slugs.insert(String(slug)) }
                rest = tail
            }
        }
        #expect(slugs.contains("draining"))
        for slug in slugs.sorted() {
            #expect(doc.contains("\n## \(slug)\n"), "docs/problems.md lacks ## \(slug) (used in Sources)")
        }
    }
}
