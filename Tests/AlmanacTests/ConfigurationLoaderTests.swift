import Foundation
import Testing
import TestSupport
@testable import Almanac

@Suite struct ConfigurationLoaderTests {
    private func load(flags: ConfigurationFlags = ConfigurationFlags(), env: [String: String] = [:],
                      files contents: [String: String] = [:]) -> Result<AlmanacConfiguration, ConfigurationErrors> {
        ConfigurationLoader.load(flags: flags, environment: env, fileReader: files(contents))
    }

    private func problems(flags: ConfigurationFlags = ConfigurationFlags(), env: [String: String] = [:],
                          files contents: [String: String] = [:]) -> [String] {
        guard case let .failure(errors) = load(flags: flags, env: env, files: contents) else { return [] }
        return errors.problems
    }

    @Test func defaultsMatchTheContract() throws {
        let c = try load().get()
        #expect(c == AlmanacConfiguration())
        #expect(c.server.http.host == "0.0.0.0" && c.server.http.port == 8080 && c.server.http.maxConnections == 4096)
        #expect(c.server.http.headerTimeoutSeconds == 10 && c.server.http.idleTimeoutSeconds == 60 && c.server.http.shutdownGraceSeconds == 10)
        #expect(c.server.http.maxHeaderBytes == 16384 && c.server.http.maxBodyBytes == 65536 && c.server.adminToken == nil)
        #expect(c.cache.maxEntries == 10000 && c.cache.maxBytes == 67_108_864)
        #expect(c.upstream.client.connectTimeoutMs == 2000 && c.upstream.client.timeoutMs == 5000 && c.upstream.client.retries == 2)
        #expect(c.upstream.client.maxResponseBytes == 5_242_880)
        #expect(c.upstream.client.userAgent == "almanac/\(AlmanacVersion.string) (+https://github.com/almanac-dev/almanac)")
        #expect(c.rates.providers == ["coinbase", "coingecko"] && c.rates.ttlSeconds == 60 && c.rates.staleSeconds == 600)
        #expect(c.rates.endpoints["coinbase"].baseURL == "https://api.coinbase.com")
        #expect(c.rates.endpoints["coingecko"].baseURL == "https://api.coingecko.com")
        #expect(c.rates.endpoints["coindesk"].baseURL == "https://api.coindesk.com")
        #expect(c.history.providers == ["bitstamp", "coinbase-exchange"] && c.history.ttlSeconds == 2_592_000)
        #expect(c.history.endpoints["frankfurter"].baseURL == "https://api.frankfurter.dev")
        #expect(c.books.providers == ["google-books", "open-library"] && c.books.ttlSeconds == 86400)
        #expect(c.books.notFoundTtlSeconds == 3600 && c.books.staleSeconds == 604_800 && c.books.maxCoverBytes == 2_097_152)
        #expect(c.books.endpoints["google-books"].baseURL == "https://www.googleapis.com" && c.books.googleBooks.apiKey == nil)
        #expect(c.books.endpoints["open-library"].baseURL == "https://openlibrary.org")
        #expect(c.books.openLibrary.coversBaseURL == "https://covers.openlibrary.org")
        #expect(c.log.level == .info && c.log.format == .json)
    }

    @Test func environmentNamesFollowTheContractTable() {
        let names = Set(ConfigurationKey.all.map(\.environmentName))
        for expected in ["ALMANAC_SERVER_HOST", "ALMANAC_SERVER_PORT", "ALMANAC_SERVER_MAX_CONNECTIONS",
                         "ALMANAC_SERVER_HEADER_TIMEOUT_SECONDS", "ALMANAC_SERVER_IDLE_TIMEOUT_SECONDS",
                         "ALMANAC_SERVER_MAX_HEADER_BYTES", "ALMANAC_SERVER_MAX_BODY_BYTES",
                         "ALMANAC_SERVER_SHUTDOWN_GRACE_SECONDS", "ALMANAC_SERVER_ADMIN_TOKEN",
                         "ALMANAC_CACHE_MAX_ENTRIES", "ALMANAC_CACHE_MAX_BYTES",
                         "ALMANAC_UPSTREAM_CONNECT_TIMEOUT_MS", "ALMANAC_UPSTREAM_TIMEOUT_MS", "ALMANAC_UPSTREAM_RETRIES",
                         "ALMANAC_UPSTREAM_MAX_RESPONSE_BYTES", "ALMANAC_UPSTREAM_USER_AGENT",
                         "ALMANAC_RATES_PROVIDERS", "ALMANAC_RATES_TTL_SECONDS", "ALMANAC_RATES_STALE_SECONDS",
                         "ALMANAC_RATES_COINBASE_BASE_URL", "ALMANAC_RATES_COINGECKO_BASE_URL", "ALMANAC_RATES_COINDESK_BASE_URL",
                         "ALMANAC_BOOKS_PROVIDERS", "ALMANAC_BOOKS_TTL_SECONDS", "ALMANAC_BOOKS_NOT_FOUND_TTL_SECONDS",
                         "ALMANAC_BOOKS_STALE_SECONDS", "ALMANAC_BOOKS_GOOGLE_BOOKS_BASE_URL",
                         "ALMANAC_BOOKS_GOOGLE_BOOKS_API_KEY", "ALMANAC_BOOKS_OPEN_LIBRARY_BASE_URL",
                         "ALMANAC_BOOKS_OPEN_LIBRARY_COVERS_BASE_URL", "ALMANAC_BOOKS_MAX_COVER_BYTES",
                         "ALMANAC_LOG_LEVEL", "ALMANAC_LOG_FORMAT"] {
            #expect(names.contains(expected), "\(expected)")
        }
    }

    @Test func checkedInConfigFileHoldsExactlyTheDefaults() throws {
        let path = repositoryRoot.appendingPathComponent("config/almanac.json").path
        let config = try ConfigurationLoader.load(flags: .init(configPath: path), environment: [:]).get()
        #expect(config == AlmanacConfiguration())
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for key in ConfigurationKey.all {
            #expect(text.contains("\"\(key.path.split(separator: ".").last!)\""), "config/almanac.json lacks \(key.path)")
        }
    }

    @Test func precedenceIsDefaultsThenFileThenEnvironmentThenFlags() throws {
        let file = #"{"server": {"port": 7000, "host": "127.0.0.1", "maxConnections": 10}, "log": {"level": "debug"}}"#
        let fromFile = try load(files: ["config/almanac.json": file]).get()
        #expect(fromFile.server.http.port == 7000 && fromFile.server.http.maxConnections == 10 && fromFile.log.level == .debug)

        let fromEnv = try load(env: ["ALMANAC_SERVER_PORT": "7100"], files: ["config/almanac.json": file]).get()
        #expect(fromEnv.server.http.port == 7100 && fromEnv.server.http.maxConnections == 10)

        let fromFlag = try load(flags: .init(host: "::1", port: "7200"), env: ["ALMANAC_SERVER_PORT": "7100", "ALMANAC_SERVER_HOST": "10.0.0.1"],
                                files: ["config/almanac.json": file]).get()
        #expect(fromFlag.server.http.port == 7200 && fromFlag.server.http.host == "::1")
    }

    @Test func fileIsChosenByFlagThenEnvironmentThenDefaultLocation() throws {
        let fs = ["a.json": #"{"server":{"port":1001}}"#, "b.json": #"{"server":{"port":1002}}"#,
                  "config/almanac.json": #"{"server":{"port":1003}}"#]
        #expect(try load(flags: .init(configPath: "a.json"), env: ["ALMANAC_CONFIG": "b.json"], files: fs).get().server.http.port == 1001)
        #expect(try load(env: ["ALMANAC_CONFIG": "b.json"], files: fs).get().server.http.port == 1002)
        #expect(try load(files: fs).get().server.http.port == 1003)
        #expect(try load().get().server.http.port == 8080, "a missing default file is fine")
    }

    @Test func explicitlyNamedMissingFileIsAnError() {
        #expect(problems(flags: .init(configPath: "nope.json")) == ["config: file nope.json (from --config) does not exist"])
        #expect(problems(env: ["ALMANAC_CONFIG": "gone.json"]) == ["config: file gone.json (from ALMANAC_CONFIG) does not exist"])
    }

    @Test func portEnvironmentVariableIsUsedOnlyWithoutAlmanacServerPort() throws {
        #expect(try load(env: ["PORT": "9000"]).get().server.http.port == 9000)
        #expect(try load(env: ["PORT": "9000", "ALMANAC_SERVER_PORT": "9100"]).get().server.http.port == 9100)
        #expect(try load(flags: .init(port: "9200"), env: ["PORT": "9000"]).get().server.http.port == 9200)
        #expect(problems(env: ["PORT": "http"]) == [#"server.port: expected an integer 1–65535, got "http" (from PORT)"#])
    }

    @Test func portZeroOnlyFromTheFlag() throws {
        #expect(try load(flags: .init(port: "0")).get().server.http.port == 0)
        #expect(problems(env: ["ALMANAC_SERVER_PORT": "0"]) == [#"server.port: expected an integer 1–65535, got "0" (from ALMANAC_SERVER_PORT)"#])
        #expect(problems(files: ["config/almanac.json": #"{"server":{"port":0}}"#])
                    == ["server.port: expected an integer 1–65535, got 0 (from config/almanac.json)"])
    }

    @Test func environmentListsAndOptionalSecrets() throws {
        let c = try load(env: ["ALMANAC_RATES_PROVIDERS": "coindesk, coinbase", "ALMANAC_BOOKS_PROVIDERS": "open-library",
                               "ALMANAC_SERVER_ADMIN_TOKEN": "s3cret-admin-token", "ALMANAC_BOOKS_GOOGLE_BOOKS_API_KEY": "",
                               "ALMANAC_RATES_TTL_SECONDS": "0.5", "ALMANAC_LOG_FORMAT": "text"]).get()
        #expect(c.rates.providers == ["coindesk", "coinbase"])
        #expect(c.books.providers == ["open-library"])
        #expect(c.server.adminToken == "s3cret-admin-token")
        #expect(c.books.googleBooks.apiKey == nil, "an empty variable means unset")
        #expect(c.rates.ttlSeconds == 0.5)
        #expect(c.log.format == .text)
    }

    @Test func everyProblemIsReportedOnItsOwnLineNamingKeyAndSource() {
        let file = #"""
        {"server": {"port": "abc", "prot": 1, "maxConnections": 0, "headerTimeoutSeconds": -1, "adminToken": "has space"},
         "cache": {"maxEntries": true},
         "upstream": {"retries": 1.5, "userAgent": ""},
         "rates": {"providers": ["coinbase", "nope"], "coinbase": {"baseUrl": "ftp://x"}, "extra": {"a": 1}},
         "books": {"providers": [], "googleBooks": {"baseUrl": "https://g.example/?key=1", "country": "gb"}, "openLibrary": 3},
         "log": {"level": "verbose", "format": "xml"},
         "metrics": {}}
        """#
        let found = problems(files: ["config/almanac.json": file])
        let src = "(from config/almanac.json)"
        let expected = [
            "books.googleBooks.baseUrl: expected an http:// or https:// URL with a host and no query, got \"https://g.example/?key=***\" \(src)",
            "books.googleBooks.country: expected a two-letter upper-case country code (ISO 3166-1), or null, got \"gb\" \(src)",
            "books.openLibrary: expected an object, got 3 \(src)",
            "books.providers: expected a non-empty list of distinct providers from google-books, open-library, got an array \(src)",
            "cache.maxEntries: expected an integer 1–100000000, got true \(src)",
            "log.format: expected one of json, text, got \"xml\" \(src)",
            "log.level: expected one of debug, info, warn, error, got \"verbose\" \(src)",
            "metrics: unknown key \(src)",
            "rates.coinbase.baseUrl: expected an http:// or https:// URL with a host and no query, got \"ftp://x\" \(src)",
            "rates.extra: unknown key \(src)",
            "rates.providers: expected a non-empty list of distinct providers from coinbase, coingecko, coindesk, got an array \(src)",
            "server.adminToken: expected at least 8 printable ASCII characters without spaces, or null, got a value not shown (secret) \(src)",
            "server.headerTimeoutSeconds: expected a number of seconds > 0 and ≤ 3600, got -1 \(src)",
            "server.maxConnections: expected an integer 1–1000000, got 0 \(src)",
            "server.port: expected an integer 1–65535, got \"abc\" \(src)",
            "server.prot: unknown key \(src) (did you mean server.port?)",
            "upstream.retries: expected an integer 0–10, got 1.5 \(src)",
            "upstream.userAgent: expected a non-empty string of printable ASCII, got \"\" \(src)",
        ]
        #expect(found == expected)
    }

    @Test func booleansAreNotNumbersAndNumbersAreNotBooleans() {
        #expect(problems(files: ["config/almanac.json": #"{"server":{"port":true}}"#])
                    == ["server.port: expected an integer 1–65535, got true (from config/almanac.json)"])
        #expect(problems(files: ["config/almanac.json": #"{"server":{"shutdownGraceSeconds":false}}"#]).count == 1)
        #expect(problems(files: ["config/almanac.json": #"{"log":{"level":1}}"#])
                    == ["log.level: expected one of debug, info, warn, error, got 1 (from config/almanac.json)"])
        #expect(problems(files: ["config/almanac.json": #"{"server":{"port":1}}"#]).isEmpty, "1 is a number, not true")
        #expect(problems(files: ["config/almanac.json": #"{"server":{"port":8080.0}}"#]).isEmpty)
    }

    @Test func malformedFilesAndUnknownEnvironmentVariables() {
        #expect(problems(files: ["config/almanac.json": "{"]).first?.hasPrefix("config: config/almanac.json is not valid JSON") == true)
        #expect(problems(files: ["config/almanac.json": "[1]"]) == ["config: config/almanac.json must hold a JSON object, got an array"])
        // A key written twice is refused, not settled by whichever copy the reader keeps.
        #expect(problems(files: ["config/almanac.json": "{\"server\":{\"port\":1,\n\"port\":2}}"])
                    == ["config: config/almanac.json is not valid JSON: duplicate member name at line 2, column 1"])
        #expect(problems(env: ["ALMANAC_SERVER_PROT": "1"])
                    == ["ALMANAC_SERVER_PROT: unknown environment variable (no configuration key has this name) (did you mean ALMANAC_SERVER_PORT?)"])
        #expect(problems(env: ["ALMANAC_UPSTREAM_TIMEOUT_MS": "0", "ALMANAC_BOOKS_MAX_COVER_BYTES": "big"]) == [
            #"books.maxCoverBytes: expected an integer 1–67108864, got "big" (from ALMANAC_BOOKS_MAX_COVER_BYTES)"#,
            #"upstream.timeoutMs: expected an integer 1–600000, got "0" (from ALMANAC_UPSTREAM_TIMEOUT_MS)"#,
        ])
        #expect(problems(flags: .init(host: "bad host")) == [#"server.host: expected a host name or IP address, got "bad host" (from --host)"#])
    }

    @Test func adminTokenMustBeLongEnough() {
        #expect(problems(env: ["ALMANAC_SERVER_ADMIN_TOKEN": "short"]) == [
            "server.adminToken: expected at least 8 printable ASCII characters without spaces, or null, got a value not shown (secret) (from ALMANAC_SERVER_ADMIN_TOKEN)",
        ])
    }

    @Test func secretsAreNeverEchoedInProblems() {
        let found = problems(env: ["ALMANAC_BOOKS_GOOGLE_BOOKS_API_KEY": "AIza secret key"])
        #expect(found.count == 1)
        #expect(!found[0].contains("AIza"))
    }

    @Test func conversionsCarryEveryValue() throws {
        let c = try load(env: ["ALMANAC_SERVER_MAX_CONNECTIONS": "7", "ALMANAC_UPSTREAM_RETRIES": "0",
                               "ALMANAC_CACHE_MAX_ENTRIES": "5", "ALMANAC_UPSTREAM_USER_AGENT": "almanac (ops@example.org)"]).get()
        #expect(c.httpServerConfiguration.maxConnections == 7)
        #expect(c.httpServerConfiguration.bodyTimeoutSeconds == c.server.http.headerTimeoutSeconds,
                "a slow body is cut as soon as a slow head would be")
        #expect(c.httpServerConfiguration.serverName == "almanac/\(AlmanacVersion.string)")
        #expect(c.httpClientConfiguration.retries == 0)
        #expect(c.httpClientConfiguration.userAgent == "almanac (ops@example.org)")
        #expect(c.cacheLimits.maxEntries == 5)
    }
}
