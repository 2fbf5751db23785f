import Foundation
import HTTP1
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

    /// The README's module graph is Package.swift's: every product module (library and
    /// executable targets, not the test support, benchmark drivers or the C build-info target)
    /// with exactly its dependencies. A module added, removed or rewired without the README
    /// fails here.
    @Test func readmeModuleGraphMatchesThePackage() throws {
        let readme = try read("README.md")
        guard let start = readme.range(of: "<!-- module-graph -->\n```\n"),
              let end = readme.range(of: "```\n<!-- /module-graph -->", range: start.upperBound..<readme.endIndex) else {
            Issue.record("README.md has no <!-- module-graph --> block")
            return
        }
        var documented: [String: Set<String>] = [:]
        for line in readme[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard let module = words.first else { continue }
            let rest = words.count > 1 ? words[1] : ""
            documented[module] = Set(rest.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && $0 != "—" })
        }
        let declared = try Self.packageTargets(read("Package.swift"))
            .filter { !$0.key.hasSuffix("TestSupport") && !$0.key.hasPrefix("bench-") && !Self.isCTarget($0.key) }
        #expect(documented == declared, "README module graph differs from Package.swift")
        #expect(declared["Redis"]?.isDisjoint(with: ["HTTP1", "Web"]) == true, "Redis must not depend on the HTTP modules")
    }

    /// `CEpoll`, `CBuildInfo`, …: C targets (system libraries and the build-info string), which the
    /// README names only as dependencies.
    private static func isCTarget(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        return bytes.count > 1 && bytes[0] == UInt8(ascii: "C") && bytes[1] >= UInt8(ascii: "A") && bytes[1] <= UInt8(ascii: "Z")
    }

    /// `.target(name: "X", dependencies: [...])` and `.executableTarget(...)` of a manifest: each
    /// name with the quoted names in its dependency list (conditions carry no quotes).
    private static func packageTargets(_ manifest: String) -> [String: Set<String>] {
        var targets: [String: Set<String>] = [:]
        let scalars = Array(manifest.unicodeScalars)
        func quoted(_ slice: ArraySlice<Unicode.Scalar>) -> [String] {
            var names: [String] = [], current: String?
            for scalar in slice {
                if scalar == "\"" {
                    if let name = current { names.append(name); current = nil } else { current = "" }
                } else if current != nil {
                    current?.unicodeScalars.append(scalar)
                }
            }
            return names
        }
        let text = manifest
        for opener in [".target(name:", ".executableTarget(name:"] {
            var searchFrom = text.startIndex
            while let found = text.range(of: opener, range: searchFrom..<text.endIndex) {
                searchFrom = found.upperBound
                let index = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: found.lowerBound)
                var depth = 0, close = index
                for i in index..<scalars.count {
                    if scalars[i] == "(" { depth += 1 } else if scalars[i] == ")" { depth -= 1; if depth == 0 { close = i; break } }
                }
                let call = scalars[index...close]
                guard let name = quoted(call).first else { continue }
                var dependencies: Set<String> = []
                let callText = String(String.UnicodeScalarView(call))
                if let list = callText.range(of: "dependencies: [") {
                    let listScalars = Array(callText[list.upperBound...].unicodeScalars)
                    var level = 1, stop = listScalars.count
                    for (i, scalar) in listScalars.enumerated() {
                        if scalar == "[" { level += 1 } else if scalar == "]" { level -= 1; if level == 0 { stop = i; break } }
                    }
                    dependencies = Set(quoted(listScalars[0..<stop]))
                }
                targets[name] = dependencies
            }
        }
        return targets
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
