import Foundation
import HTTP1
import Testing
@testable import Almanac

/// The app on a real socket: the health check probe, readiness and the access log.
@Suite struct EndToEndTests {
    @Test
    func healthcheckAgainstTheRealServerAndDrain() async throws {
        var config = AlmanacConfiguration()
        config.server.http.host = "127.0.0.1"
        config.server.http.port = 0
        config.server.http.shutdownGraceSeconds = 2
        let sink = MemoryLogSink()
        let app = AlmanacApp(configuration: config, logSink: sink)
        let port = try app.start()
        let url = "http://127.0.0.1:\(port)/healthz"
        #expect(HealthCheck.probe(url: url) == nil)
        #expect(HealthCheck.probe(url: "http://127.0.0.1:\(port)/readyz") == nil)
        #expect(HealthCheck.probe(url: "http://127.0.0.1:\(port)/nope") == .status(404))
        let captured = CapturedOutput()
        #expect(AlmanacCLI.run(arguments: ["healthcheck", "--url", url], environment: [:], output: captured.output) == 0)

        await app.shutdown()
        #expect(HealthCheck.probe(url: url) != nil, "nothing answers after shutdown")
        let access = sink.lines.filter { $0.contains(#""msg":"request""#) }
        #expect(access.count == 4)
        #expect(access.allSatisfy { $0.contains(#""request_id":""#) && $0.contains(#""duration_ms":"#) })
    }
}
