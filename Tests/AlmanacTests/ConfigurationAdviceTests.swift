import Foundation
import Synchronization
import HTTP1
import Transport
import Testing
@testable import Almanac

/// Configuration errors say how to fix them: the closest known name, the line and column of a
/// JSON syntax error, a file problem in plain words, and the key to change when the port is busy.
@Suite struct ConfigurationAdviceTests {
    private func problems(env: [String: String] = [:], files: [String: String] = [:],
                          reader: ConfigurationLoader.FileReader? = nil) -> [String] {
        let read = reader ?? { path in files[path].map { Data($0.utf8) } }
        guard case let .failure(errors) = ConfigurationLoader.load(
            flags: ConfigurationFlags(), environment: env, fileReader: read) else { return [] }
        return errors.problems
    }

    @Test func unknownNamesGetTheClosestKnownOne() {
        #expect(problems(env: ["ALMANAC_SERVER_PROT": "1"]).first?.hasSuffix("(did you mean ALMANAC_SERVER_PORT?)") == true)
        #expect(problems(env: ["ALMANAC_CACHE_MAX_ENTRYS": "1"]).first?.hasSuffix("(did you mean ALMANAC_CACHE_MAX_ENTRIES?)") == true)
        #expect(problems(env: ["ALMANAC_LOG_LEVLE": "info"]).first?.hasSuffix("(did you mean ALMANAC_LOG_LEVEL?)") == true)
        #expect(problems(files: ["config/almanac.json": #"{"server":{"maxConnection":5}}"#])
                    == ["server.maxConnection: unknown key (from config/almanac.json) (did you mean server.maxConnections?)"])
        #expect(problems(files: ["config/almanac.json": #"{"sever":{}}"#])
                    == ["sever: unknown key (from config/almanac.json) (did you mean server?)"])
        // Far from every key: no misleading hint.
        #expect(problems(env: ["ALMANAC_COMPLETELY_DIFFERENT": "1"])
                    == ["ALMANAC_COMPLETELY_DIFFERENT: unknown environment variable (no configuration key has this name)"])
    }

    @Test func closestNameIsBoundedAndCaseInsensitive() {
        #expect(ClosestName.suggestion(for: "server.PORT", among: ["server.port", "server.host"]) == "server.port")
        #expect(ClosestName.suggestion(for: "xyz", among: ["server.port"]) == nil)
        #expect(ClosestName.suggestion(for: "", among: ["a"]) == "a")
        #expect(ClosestName.editDistance(Array("kitten".utf8), Array("sitting".utf8), giveUpAbove: 10) == 3)
        #expect(ClosestName.editDistance(Array("abc".utf8), Array("abcdefgh".utf8), giveUpAbove: 2) == 3)
        #expect(ClosestName.editDistance([], Array("ab".utf8), giveUpAbove: 5) == 2)
        #expect(ClosestName.editDistance(Array("ab".utf8), [], giveUpAbove: 5) == 2)
    }

    @Test func jsonSyntaxErrorsGiveLineAndColumn() {
        let file = "{\n  \"server\": {\n    \"port\": 80,,\n  }\n}\n"
        #expect(problems(files: ["config/almanac.json": file])
                    == ["config: config/almanac.json is not valid JSON: expected a member name at line 3, column 16"])
        // Columns count characters, not bytes.
        let accented = "{\"é\": x}"
        #expect(JSONSyntaxLocation(of: Array(accented.utf8)) == JSONSyntaxLocation(line: 1, column: 7, reason: "unexpected character"))
        #expect(JSONSyntaxLocation(of: Array("{}".utf8)) == nil)
        #expect(problems(files: ["config/almanac.json": "{"]) == ["config: config/almanac.json is not valid JSON: expected a member name at line 1, column 2"])
    }

    @Test func fileProblemsInPlainWords() throws {
        let directory = NSTemporaryDirectory()
        let found = problems(env: ["ALMANAC_CONFIG": directory], reader: ConfigurationLoader.readFile)
        #expect(found == ["config: \(directory) (from ALMANAC_CONFIG) is a directory, not a file: name the JSON file itself (e.g. config/almanac.json)"])
        #expect(!found.joined().contains("NSCocoaErrorDomain"))
        let missing = problems(env: ["ALMANAC_CONFIG": "/nonexistent/almanac.json"], reader: ConfigurationLoader.readFile)
        #expect(missing == ["config: file /nonexistent/almanac.json (from ALMANAC_CONFIG) does not exist"])
    }

    @Test func aBusyPortNamesTheKeyToChange() throws {
        let busy = SocketError(call: "bind(0.0.0.0:8080)", errno: EADDRINUSE)
        let text = ListenFailureAdvice.describe(busy, host: "0.0.0.0", port: 8080)
        #expect(text == "port 8080 on 0.0.0.0 is already in use by another process: set server.port (ALMANAC_SERVER_PORT, PORT or --port) to a free port, or stop the other process")
        #expect(ListenFailureAdvice.describe(SocketError(call: "bind(10.9.9.9:80)", errno: EADDRNOTAVAIL), host: "10.9.9.9", port: 80)
                    .contains("set server.host (ALMANAC_SERVER_HOST or --host)"))
        #expect(ListenFailureAdvice.describe(SocketError(call: "bind(0.0.0.0:80)", errno: EACCES), host: "0.0.0.0", port: 80)
                    .contains("port of 1024 or above"))
    }

    /// The real command: a second almanac on a port that is taken exits 1 naming the key.
    @Test func serveOnABusyPortSaysWhichKeyToChange() throws {
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0 && listen(holder, 1) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(holder, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let errors = Mutex<[String]>([])
        let output = AlmanacCLI.Output(out: { _ in }, err: { line in errors.withLock { $0.append(line) } })
        let code = AlmanacCLI.run(arguments: ["serve", "--host", "127.0.0.1", "--port", String(port)],
                                  environment: ["ALMANAC_LOG_LEVEL": "error"], output: output,
                                  fileReader: { _ in nil })
        #expect(code == AlmanacCLI.exitFailure)
        #expect(errors.withLock { $0 }.contains { $0.contains("port \(port) on 127.0.0.1 is already in use") && $0.contains("server.port") })
    }
}

extension ConfigurationAdviceTests {
    /// `make` exports ALMANAC_COMMIT for the build; `make run` and `make demo` start almanac
    /// with it still set, which must not be a configuration error.
    @Test func theBuildTimeCommitVariableIsNotAConfigurationKey() {
        #expect(problems(env: ["ALMANAC_COMMIT": "1a2b3c4d5e6f-dirty"]).isEmpty)
    }
}
