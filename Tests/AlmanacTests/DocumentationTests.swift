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
                     "upstream-timeout", "overloaded", "draining", "unauthorized", "bad-request"] {
            #expect(doc.contains("\n## \(slug)\n"), "docs/problems.md lacks ## \(slug)")
        }
    }
}
