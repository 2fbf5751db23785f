import Foundation
import HTTPClient
import HTTPClientTestSupport
import Testing

@Suite(.timeLimit(.minutes(5))) struct StubUpstreamTests {
    @Test func exactPathAndQueryRouteWinsOverThePath() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/api/books", .json(#"{}"#))
        stub.route("/api/books?bibkeys=ISBN:9780131103627&format=json&jscmd=data", .json(#"{"ISBN:9780131103627":{}}"#))
        let client = makeClient()
        let exact = try await client.get(UpstreamRequest(url: stub.baseURL + "/api/books?bibkeys=ISBN:9780131103627&format=json&jscmd=data", provider: "open-library"))
        let other = try await client.get(UpstreamRequest(url: stub.baseURL + "/api/books?bibkeys=ISBN:0", provider: "open-library"))
        let missing = try await client.get(UpstreamRequest(url: stub.baseURL + "/nowhere", provider: "open-library"))
        #expect(String(decoding: exact.body, as: UTF8.self).contains("9780131103627"))
        #expect(String(decoding: other.body, as: UTF8.self) == "{}")
        #expect(missing.status == 404)
        #expect(stub.requestCount(for: "/api/books") == 2)
        #expect(stub.totalRequests == 3)
    }

    @Test func handlerRoutesSeeTheRequest() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/echo") { request in .text(request.query ?? "") }
        let response = try await makeClient().get(UpstreamRequest(url: stub.baseURL + "/echo?a=1", provider: "p"))
        #expect(String(decoding: response.body, as: UTF8.self) == "a=1")
    }

    @Test func hangFaultTimesOutAndCanBeSwitchedOff() async throws {
        let stub = try StubUpstream()
        defer { stub.stop() }
        stub.route("/h", .json("{}"))
        stub.setFault(.hang)
        let client = makeClient(timeoutMs: 300)
        let error = await expectUpstreamError { try await client.get(UpstreamRequest(url: stub.baseURL + "/h", provider: "p")) }
        #expect(error?.kind == .timeout)
        stub.setFault(nil)
        #expect(try await client.get(UpstreamRequest(url: stub.baseURL + "/h", provider: "p")).status == 200)
    }
}
