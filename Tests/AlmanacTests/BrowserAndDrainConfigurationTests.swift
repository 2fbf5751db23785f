import Foundation
import Testing
import TestSupport
@testable import Almanac

/// `server.cors.allowedOrigins` and `server.shutdownDelaySeconds` through the strict loader.
@Suite struct BrowserAndDrainConfigurationTests {
    private func load(env: [String: String] = [:], file: String? = nil) -> Result<AlmanacConfiguration, ConfigurationErrors> {
        ConfigurationLoader.load(flags: ConfigurationFlags(), environment: env,
                                 fileReader: files(file.map { ["config/almanac.json": $0] } ?? [:]))
    }

    private func problems(env: [String: String] = [:], file: String? = nil) -> [String] {
        guard case let .failure(errors) = load(env: env, file: file) else { return [] }
        return errors.problems
    }

    @Test func defaults() throws {
        let c = try load().get()
        #expect(c.server.cors.allowedOrigins == ["*"])
        #expect(c.server.shutdownDelaySeconds == 0)
    }

    @Test func originsAreNormalizedFromTheEnvironmentAndTheFile() throws {
        let fromEnv = try load(env: ["ALMANAC_SERVER_CORS_ALLOWED_ORIGINS": "https://Widget.Example:443, http://localhost:3000"]).get()
        #expect(fromEnv.server.cors.allowedOrigins == ["https://widget.example", "http://localhost:3000"])
        let fromFile = try load(file: #"{"server":{"cors":{"allowedOrigins":["https://a.example"]}}}"#).get()
        #expect(fromFile.server.cors.allowedOrigins == ["https://a.example"])
        let none = try load(file: #"{"server":{"cors":{"allowedOrigins":[]}}}"#).get()
        #expect(none.server.cors.allowedOrigins == [], "an empty list admits no origin")
        let star = try load(env: ["ALMANAC_SERVER_CORS_ALLOWED_ORIGINS": "*"]).get()
        #expect(star.server.cors.allowedOrigins == ["*"])
    }

    @Test func badOriginsNameTheKeyAndTheFix() {
        let expected = "server.cors.allowedOrigins: expected [\"*\"] for any origin, or a list of origins such as "
            + "https://app.example.com (http or https, a host and an optional port; no path, not even a trailing slash)"
        for bad in ["https://a.example/", "*, https://a.example", "https://a.example, https://A.example:443", "a.example"] {
            let found = problems(env: ["ALMANAC_SERVER_CORS_ALLOWED_ORIGINS": bad])
            #expect(found.count == 1 && found[0].hasPrefix(expected), "\(bad): \(found)")
        }
        #expect(problems(file: #"{"server":{"cors":{"allowedOrigins":"*"}}}"#).first?.hasPrefix("server.cors.allowedOrigins: expected") == true)
        #expect(problems(file: #"{"server":{"cors":{"origins":["*"]}}}"#) == ["server.cors.origins: unknown key (from config/almanac.json)"])
    }

    @Test func shutdownDelay() throws {
        #expect(try load(env: ["ALMANAC_SERVER_SHUTDOWN_DELAY_SECONDS": "5"]).get().server.shutdownDelaySeconds == 5)
        #expect(try load(file: #"{"server":{"shutdownDelaySeconds":0.5}}"#).get().server.shutdownDelaySeconds == 0.5)
        #expect(problems(env: ["ALMANAC_SERVER_SHUTDOWN_DELAY_SECONDS": "-1"])
                == ["server.shutdownDelaySeconds: expected a number of seconds ≥ 0 and ≤ 3600, got \"-1\" (from ALMANAC_SERVER_SHUTDOWN_DELAY_SECONDS)"])
    }
}
