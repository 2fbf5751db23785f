import Foundation
import HTTPServer
import Testing
import TestSupport
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

    /// Each registered provider's rows follow from the registry: the operations table shows
    /// its base URL and budget defaults, and the upstream guide's budget table names it, its key
    /// and its default rate. A provider added to a list without its docs fails here.
    @Test func providerRowsShowEachRegisteredProvidersDefaults() throws {
        let operations = try read("docs/operations.md"), upstream = try read("docs/upstream.md")
        let defaults = AlmanacConfiguration()
        let areas = [("rates", defaults.rates.endpoints), ("rates", defaults.history.endpoints),
                     ("rates", defaults.rates.index.endpoints), ("books", defaults.books.endpoints)]
        for (area, endpoints) in areas {
            for descriptor in endpoints.descriptors {
                let prefix = "\(area).\(descriptor.configName)"
                let rate = Self.number(descriptor.defaultBudget.maxRequestsPerSecond)
                #expect(operations.contains("| `\(prefix).baseUrl` | `\(descriptor.defaultBaseURL)` |"), "\(prefix).baseUrl")
                #expect(operations.contains("| `\(prefix).maxRequestsPerSecond` | `\(rate)` |"), "\(prefix).maxRequestsPerSecond")
                #expect(operations.contains("| `\(prefix).burst` | `\(descriptor.defaultBudget.burst)` |"), "\(prefix).burst")
                #expect(upstream.contains("| \(descriptor.id) | `\(prefix).maxRequestsPerSecond` | \(rate) |"), "upstream.md: \(descriptor.id)")
            }
        }
    }

    /// The README is a front page: the two commands, a short tour and where to read more, under
    /// 250 lines; depth lives in docs/, and docs/README.md links every page there, so a page
    /// added without its index line (or a README growing back into a manual) fails here.
    @Test func readmeStaysAFrontPageAndTheDocsIndexLinksEveryPage() throws {
        let readme = try read("README.md")
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 250, "README.md is over 250 lines")
        #expect(readme.contains("make run") && readme.contains("make test"))
        #expect(readme.contains("\n## Quick tour\n"), "scripts/tour_test.py runs the README's \"## Quick tour\"")
        let index = try read("docs/README.md")
        let docs = repositoryRoot.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") && $0 != "README.md" }
        #expect(pages.contains("tour.md"))
        for page in pages {
            #expect(index.contains("](\(page))"), "docs/README.md does not link \(page)")
        }
    }

    /// `2.7`, `0.2`, and whole numbers without a fraction (`13`, `0`), as the tables write them.
    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// docs/problems.md has a section for exactly the slugs some `slug: "…"` in Sources/ can
    /// emit (whatever features are merged): none missing, none that no code sends.
    @Test func problemsGuideDocumentsExactlyTheSlugsTheSourcesEmit() throws {
        let doc = try read("docs/problems.md")
        // The type URIs almanac serves, unchanged: each slug's section of this page where the
        // project is published.
        #expect(ProblemTypes.almanac.type(of: "invalid-isbn") == "https://github.com/almanac-dev/almanac/blob/main/docs/problems.md#invalid-isbn")
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
        let documented = Set(doc.split(separator: "\n").filter { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) })
        #expect(documented.subtracting(slugs).isEmpty, "documented but never sent: \(documented.subtracting(slugs).sorted())")
        #expect(slugs.subtracting(documented).isEmpty, "sent but undocumented: \(slugs.subtracting(documented).sorted())")
    }
}
