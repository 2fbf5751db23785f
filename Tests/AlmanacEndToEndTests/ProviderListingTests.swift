import Base
import Foundation
import HTTPClientTestSupport
import Rates
import TestSupport
import Testing
@testable import Almanac

/// One place lists the providers (`ProviderListing`, printed by `check-config --providers`),
/// and everything that points providers somewhere reads it: a made-up provider added as one
/// file (`ExampleRatesProvider`) plus one line (`defaults`) is listed, wired to the stub by the
/// scripts' library and both Swift harnesses, and served end to end, with no other edit.
@Suite(.timeLimit(.minutes(5))) struct ProviderListingTests {
    /// The "one line": the standard registries with the made-up provider.
    static let defaults = AlmanacConfiguration(rates: RatesProviderKind.all + [ExampleRatesProvider.kind])

    @Test func theStandardListingIsEveryRegistryInDocumentationOrder() {
        let listing = ProviderListing.all()
        #expect(listing.map(\.name) == ["coinbase", "coingecko", "coindesk", "kraken", "gemini", "bitfinex",
                                        "bitstamp", "coinbase-exchange", "frankfurter", "google-books", "open-library"])
        #expect(listing.map(\.domain) == ["rates", "rates", "rates", "rates.index", "rates.index", "rates.index",
                                          "rates.history", "rates.history", "rates.history", "books", "books"])
        let openLibrary = listing.last
        #expect(openLibrary?.baseURLKeys == ["books.openLibrary.baseUrl", "books.openLibrary.coversBaseUrl"])
        #expect(openLibrary?.baseURLEnvironment == ["ALMANAC_BOOKS_OPEN_LIBRARY_BASE_URL",
                                                    "ALMANAC_BOOKS_OPEN_LIBRARY_COVERS_BASE_URL"])
        #expect(listing.first?.json == #"{"name":"coinbase","domain":"rates","section":"rates.coinbase","baseUrlKeys":["rates.coinbase.baseUrl"],"baseUrlEnv":["ALMANAC_RATES_COINBASE_BASE_URL"],"budgetKey":"rates.coinbase.maxRequestsPerSecond","budgetEnv":"ALMANAC_RATES_COINBASE_MAX_REQUESTS_PER_SECOND","defaultBaseUrl":"https://api.coinbase.com"}"#)
    }

    /// Every location key of every provider, read back through the key table: none is left at
    /// its real URL, and every budget is lifted.
    @Test func pointingEveryProviderLeavesNoneAtItsRealURL() throws {
        var config = Self.defaults
        config.pointEveryProvider(at: "http://127.0.0.1:9", unbudgeted: true)
        let keys = ConfigurationKey.all(for: config)
        for provider in ProviderListing.all(for: config) {
            for path in provider.baseURLKeys {
                let key = try #require(keys.first { $0.path == path })
                #expect(key.render(config) as? String == "http://127.0.0.1:9", "\(path)")
            }
        }
        #expect(config.rates.endpoints["example-rates"].baseURL == "http://127.0.0.1:9")
        #expect(config.stewardConfiguration.budgets.values.allSatisfy { $0.maxRequestsPerSecond == 0 })
    }

    @Test func checkConfigListsTheMadeUpProvider() throws {
        let captured = CapturedOutput()
        var plugins = AlmanacPlugins.standard
        plugins.configurationDefaults = Self.defaults
        let code = AlmanacCLI.run(arguments: ["check-config", "--providers"], environment: [:],
                                  output: captured.output, plugins: plugins, fileReader: files([:]))
        #expect(code == AlmanacCLI.exitSuccess)
        let lines = captured.out.split(separator: "\n").map(String.init)
        #expect(lines == ProviderListing.all(for: Self.defaults).map(\.json))
        let example = try #require(lines.compactMap { try? JSONParser.parse(Array($0.utf8)) }
            .first { $0["name"] == .string("example-rates") })
        #expect(example["baseUrlEnv"] == .array([.string("ALMANAC_RATES_EXAMPLE_RATES_BASE_URL")]))
        #expect(example["budgetEnv"] == .string("ALMANAC_RATES_EXAMPLE_RATES_MAX_REQUESTS_PER_SECOND"))
        #expect(example["defaultBaseUrl"] == .string("https://rates.example.org"))
        // The standard build lists no such provider; the flag stands alone.
        #expect(!ProviderListing.all().contains { $0.name == "example-rates" })
        #expect(CLICommand.parse(["check-config", "--providers"]) == .success(.listProviders))
        #expect((try? CLICommand.parse(["check-config", "--providers", "--port", "1"]).get()) == nil)
    }

    /// The cluster harness's (and the binary tests') environment for the real binary comes from the listing.
    @Test func theClusterHarnessWiresTheMadeUpProviderToTheStub() {
        let env = AlmanacBinary.stubEnvironment("http://127.0.0.1:9", unbudgeted: true,
                                                providers: ProviderListing.all(for: Self.defaults))
        #expect(env["ALMANAC_RATES_EXAMPLE_RATES_BASE_URL"] == "http://127.0.0.1:9")
        #expect(env["ALMANAC_RATES_EXAMPLE_RATES_MAX_REQUESTS_PER_SECOND"] == "0")
        #expect(env["ALMANAC_BOOKS_OPEN_LIBRARY_COVERS_BASE_URL"] == "http://127.0.0.1:9")
        #expect(env["ALMANAC_RATES_KRAKEN_BASE_URL"] == "http://127.0.0.1:9")
    }

    /// The scripts' library (bench/lib.sh: `make demo`, `make cluster`, the benchmarks) reads the
    /// binary's listing: given a binary that registers the made-up provider, `almanac_env` points
    /// it at the stub and `unbudget_all_providers` lifts its budget.
    @Test func theScriptsLibraryWiresTheMadeUpProviderToTheStub() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-listing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let listing = ProviderListing.all(for: Self.defaults).map(\.json).joined(separator: "\n")
        let binary = dir.appendingPathComponent("almanac")
        try ExecutableFile.create(at: binary.path, contents:
            "#!/bin/sh\n[ \"$1 $2\" = 'check-config --providers' ] || exit 2\ncat <<'EOF'\n\(listing)\nEOF\n")
        let output = dir.appendingPathComponent("env.txt").path
        let script = #". "$0/bench/lib.sh"; STUB=http://127.0.0.1:9; APP_PORT=1; almanac_env; unbudget_all_providers; env"#
        let child = try ChildProcess("/bin/bash", ["-c", script, repositoryRoot.path], environment: [
            "APP_BIN": binary.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "TMPDIR": dir.path, "HOME": dir.path,
        ], stdout: output, stderr: output)
        let status = await child.exitStatus(within: 60)
        let env = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(status == 0, "\(env)")
        let lines = Set(env.split(separator: "\n").map(String.init))
        #expect(lines.contains("ALMANAC_RATES_EXAMPLE_RATES_BASE_URL=http://127.0.0.1:9"), "\(env)")
        #expect(lines.contains("ALMANAC_RATES_EXAMPLE_RATES_MAX_REQUESTS_PER_SECOND=0"), "\(env)")
        #expect(lines.contains("ALMANAC_BOOKS_OPEN_LIBRARY_COVERS_BASE_URL=http://127.0.0.1:9"), "\(env)")
    }
}

extension FullStackTests {
    /// The made-up provider served end to end: the full-stack harness points it at the stub
    /// (nothing names it there), the stub answers its path, `/v1/rates` says it was the source.
    @Suite struct MadeUpProvider {
        @Test func aProviderAddedAsOneFileAndOneLineIsServed() async throws {
            try await FullStack.run(defaults: ProviderListingTests.defaults, configure: { config in
                config.rates.providers = ["example-rates"]
            }, script: { stub in
                stub.route(ExampleRatesProvider.path, .json(#"{"rates":{"USD":"91234.56","EUR":"84000.12"}}"#))
            }) { s in
                let r = try await s.get("/v1/rates?symbols=USD,EUR")
                #expect(r.status == 200, "\(r.text)")
                #expect(r.json?["source"] == .string("example-rates"))
                #expect(r.json?["rates"]?["USD"]?["rate"] == .number("91234.56"))
                #expect(s.count(ExampleRatesProvider.path) == 1)
            }
        }
    }
}
