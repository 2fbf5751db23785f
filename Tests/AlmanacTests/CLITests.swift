import Foundation
import Testing
import TestSupport
@testable import Almanac

@Suite struct CLITests {
    private func run(_ args: [String], env: [String: String] = [:], files contents: [String: String] = [:]) -> (Int32, CapturedOutput) {
        let captured = CapturedOutput()
        let code = AlmanacCLI.run(arguments: args, environment: env, output: captured.output, fileReader: files(contents))
        return (code, captured)
    }

    @Test func versionAndHelpExitZero() {
        let (v, vout) = run(["--version"])
        #expect(v == 0 && vout.out == "almanac \(AlmanacVersion.string) (commit \(AlmanacVersion.commit))")
        for args in [["--help"], ["-h"], ["serve", "--help"], ["help"]] {
            let (h, hout) = run(args)
            #expect(h == 0 && hout.out.contains("Usage:") && hout.out.contains("check-config"), "\(args)")
        }
    }

    @Test func unknownCommandsAndFlagsAreUsageErrors() {
        for args in [["bogus"], ["--bogus"], ["serve", "--verbose"], ["check-config", "--url", "x"],
                     ["serve", "--port"], ["serve", "extra"], ["healthcheck", "--host", "h"], ["serve", "--port", "1", "--port", "2"]] {
            let (code, out) = run(args)
            #expect(code == 2, "\(args)")
            #expect(out.err.contains("Usage:"), "\(args)")
        }
    }

    @Test func parsesFlagsInBothForms() throws {
        #expect(try CLICommand.parse(["--port=9", "--host", "::1"]).get() == .serve(.init(host: "::1", port: "9")))
        #expect(try CLICommand.parse(["check-config", "--config", "x.json"]).get() == .checkConfig(.init(configPath: "x.json")))
        #expect(try CLICommand.parse(["healthcheck", "--url=http://h:1/healthz"]).get()
                    == .healthcheck(url: "http://h:1/healthz", flags: .init()))
        #expect(try CLICommand.parse([]).get() == .serve(.init()))
    }

    @Test func checkConfigPrintsEffectiveConfigurationWithSecretsRedacted() throws {
        let file = #"{"server":{"adminToken":"file-admin-token-123"},"books":{"googleBooks":{"apiKey":"AIzaFileKey"}}}"#
        let (code, out) = run(["check-config", "--port", "9999"],
                              env: ["ALMANAC_BOOKS_GOOGLE_BOOKS_API_KEY": "AIzaEnvironmentKey"],
                              files: ["config/almanac.json": file])
        #expect(code == 0)
        #expect(!out.out.contains("file-admin-token-123") && !out.out.contains("AIza"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out.out.utf8)) as? [String: Any])
        let server = try #require(json["server"] as? [String: Any])
        #expect(server["adminToken"] as? String == "***")
        #expect((server["port"] as? NSNumber)?.intValue == 9999)
        let google = try #require((json["books"] as? [String: Any])?["googleBooks"] as? [String: Any])
        #expect(google["apiKey"] as? String == "***")
        #expect(google["country"] is NSNull)
    }

    @Test func checkConfigWithProblemsExitsTwoAndListsThem() {
        let (code, out) = run(["check-config"], env: ["ALMANAC_SERVER_PORT": "abc", "ALMANAC_LOG_LEVEL": "loud"])
        #expect(code == 2)
        #expect(out.out.isEmpty)
        #expect(out.err.contains(#"server.port: expected an integer 1–65535, got "abc" (from ALMANAC_SERVER_PORT)"#))
        #expect(out.err.contains(#"log.level: expected one of debug, info, warn, error, got "loud" (from ALMANAC_LOG_LEVEL)"#))
    }

    @Test func serveWithBadConfigurationExitsTwoWithoutStarting() {
        let (code, out) = run(["serve"], env: ["ALMANAC_CACHE_MAX_BYTES": "-1"])
        #expect(code == 2)
        #expect(out.err.contains("cache.maxBytes"))
    }

    /// Issue 12 item 4: a password in a base URL was printed back by check-config.
    @Test func credentialsInValuesAreNeverPrinted() {
        let (code, out) = run(["check-config"], env: [
            "ALMANAC_RATES_COINBASE_BASE_URL": "http://user:hunter2pass@internal.example:8080",
            "ALMANAC_SERVER_PUBLIC_BASE_URL": "https://admin:s3cr3tpw@books.example.com",
            "ALMANAC_BOOKS_OPEN_LIBRARY_BASE_URL": "https://openlibrary.org/?token=tok3nvalue",
        ], files: ["config/almanac.json": #"{"books":{"googleBooks":{"baseUrl":"https://u:filepassword@g.example"}}}"#])
        #expect(code == 2)
        for secret in ["hunter2pass", "s3cr3tpw", "tok3nvalue", "filepassword", "user:", "admin:"] {
            #expect(!out.err.contains(secret) && !out.out.contains(secret), "\(secret) in \(out.err)")
        }
        #expect(out.err.contains(#"rates.coinbase.baseUrl: expected an http:// or https:// URL with a host and no query, got "http://***@internal.example:8080" (from ALMANAC_RATES_COINBASE_BASE_URL)"#), "\(out.err)")
        #expect(out.err.contains(#"got "https://***@books.example.com" (from ALMANAC_SERVER_PUBLIC_BASE_URL)"#))
        #expect(out.err.contains(#"got "https://openlibrary.org/?token=***" (from ALMANAC_BOOKS_OPEN_LIBRARY_BASE_URL)"#))
        #expect(out.err.contains(#"got "https://***@g.example" (from config/almanac.json)"#))
    }

    /// A base URL with a control character or a space is refused at start-up, naming the key,
    /// instead of failing every upstream call at run time.
    @Test func baseURLsWithControlCharactersOrSpacesAreRefused() {
        for bad in ["https://api.coinbase.com\r\nX-Injected: 1", "https://api.coinbase.com/v2\u{0}", "https://api.coin base.com",
                    "https://api.coinbase.com/ ", "https://api.coinbase.com\t", "https://api.coinbase.com/\u{7F}", "https://ap\u{0131}.example"] {
            let (code, out) = run(["check-config"], env: ["ALMANAC_RATES_COINBASE_BASE_URL": bad])
            #expect(code == 2, "\(bad.debugDescription)")
            #expect(out.err.contains("rates.coinbase.baseUrl: expected an http:// or https:// URL"), "\(out.err)")
        }
        let (code, out) = run(["check-config"], files: ["config/almanac.json": #"{"server":{"publicBaseUrl":"https://books.example.com/\r\n"}}"#])
        #expect(code == 2)
        #expect(out.err.contains("server.publicBaseUrl: expected"), "\(out.err)")
    }

    @Test func coversBaseUrlMustBeAnOriginThePolicyCanHold() {
        for bad in ["http://[::1]:9000", "http://2130706433:9000", "https://covers.example.com."] {
            let (code, out) = run(["check-config"], env: ["ALMANAC_BOOKS_OPEN_LIBRARY_COVERS_BASE_URL": bad])
            #expect(code == 2, "\(bad)")
            #expect(out.err.contains("books.openLibrary.coversBaseUrl: expected an http:// or https:// URL with a host name or dotted-quad IPv4 address"), "\(out.err)")
        }
        let (code, out) = run(["check-config"], env: ["ALMANAC_BOOKS_OPEN_LIBRARY_COVERS_BASE_URL": "http://127.0.0.1:9000/covers"])
        #expect(code == 0, "\(out.err)")
    }

    @Test func linkAndProxyKeysAreCheckedAndPrinted() throws {
        let (code, out) = run(["check-config"], env: [
            "ALMANAC_SERVER_PUBLIC_BASE_URL": "https://books.example.com/almanac", "ALMANAC_SERVER_TRUST_FORWARDED_HEADERS": "yes",
        ])
        #expect(code == 0, "\(out.err)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out.out.utf8)) as? [String: Any])
        let server = try #require(json["server"] as? [String: Any])
        #expect(server["publicBaseUrl"] as? String == "https://books.example.com/almanac")
        #expect(server["trustForwardedHeaders"] as? Bool == true)
        let (bad, badOut) = run(["check-config"], env: [
            "ALMANAC_SERVER_PUBLIC_BASE_URL": "books.example.com", "ALMANAC_SERVER_TRUST_FORWARDED_HEADERS": "maybe",
        ], files: ["config/almanac.json": #"{"server":{"publicBaseUrl":"https://b.example/?q=1","trustForwardedHeaders":"true"}}"#])
        #expect(bad == 2)
        #expect(badOut.err.contains("server.publicBaseUrl: expected an http:// or https:// URL with a host, no userinfo, query or fragment, or null, got \"books.example.com\""))
        #expect(badOut.err.contains(#"server.trustForwardedHeaders: expected true or false, got "maybe" (from ALMANAC_SERVER_TRUST_FORWARDED_HEADERS)"#))
        #expect(badOut.err.contains(#"server.trustForwardedHeaders: expected true or false, got "true" (from config/almanac.json)"#))
        #expect(badOut.err.contains(#"server.publicBaseUrl: expected"#) && badOut.err.contains(#"got "https://b.example/?q=1" (from config/almanac.json)"#))
    }
}
