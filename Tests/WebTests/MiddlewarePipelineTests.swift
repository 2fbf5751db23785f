import HTTP1
import Testing
import TestSupport
import Web

/// The middleware pipeline (`PipelineResponder`, `MiddlewarePair`, `CORSStep`) without sockets:
/// step order, a step's own answer, and CORS on public routes only.
@Suite struct MiddlewarePipelineTests {
    /// Records `begin`/`finish` calls into a shared journal and stamps its name on responses.
    struct Recorder: Middleware {
        let name: String
        let journal: Locked<[String]>

        func begin(_ request: HTTPRequest, _ context: RouteContext) -> String {
            journal.append("\(name) begin")
            return name
        }

        func finish(_ response: inout HTTPResponse, _ request: HTTPRequest, _ context: RouteContext, _ token: String) {
            journal.append("\(token) finish")
            response.headers.add("X-Step", token)
        }
    }

    /// Answers `GET /answered` itself.
    struct Answering: Middleware {
        typealias Token = Void
        func answer(_ request: HTTPRequest, _ context: RouteContext) -> HTTPResponse? {
            request.path == "/answered" ? HTTPResponse(status: .noContent) : nil
        }
        func finish(_ response: inout HTTPResponse, _ request: HTTPRequest, _ context: RouteContext, _ token: Void) {}
    }

    static func router(handlerCalls: Locked<[String]> = Locked([])) -> Router {
        var router = Router()
        router.get("/ready", public: true) { request, _ in
            handlerCalls.append(request.path)
            return .ready(HTTPResponse(status: .ok))
        }
        router.get("/answered", public: true) { request, _ in
            handlerCalls.append(request.path)
            return .ready(HTTPResponse(status: .ok))
        }
        router.get("/later", public: true) { _, _ in .pending { HTTPResponse(status: .ok) } }
        router.get("/private") { _, _ in .ready(HTTPResponse(status: .ok)) }
        return router
    }

    static func serve<Steps: Middleware>(_ responder: PipelineResponder<Steps>, _ method: String, _ target: String,
                                         headers: HTTPHeaders = HTTPHeaders()) async -> HTTPResponse {
        switch responder.respond(to: HTTPRequest(method: method, target: target, headers: headers)) {
        case let .ready(response): return response
        case let .pending(work): return await work()
        }
    }

    @Test(arguments: ["/ready", "/later", "/nowhere"])
    func outerStepBeginsFirstAndFinishesLast(target: String) async {
        let journal = Locked<[String]>([])
        let steps = Recorder(name: "outer", journal: journal).then(Recorder(name: "inner", journal: journal))
        let response = await Self.serve(PipelineResponder(router: Self.router(), steps: steps), "GET", target)
        #expect(journal.value == ["outer begin", "inner begin", "inner finish", "outer finish"])
        #expect(response.headers.values(for: "X-Step") == ["inner", "outer"])
    }

    @Test func aStepsAnswerReplacesTheHandlerAndIsFinishedLikeAnyOther() async {
        let calls = Locked<[String]>([])
        let journal = Locked<[String]>([])
        let steps = Recorder(name: "outer", journal: journal).then(Answering())
        let responder = PipelineResponder(router: Self.router(handlerCalls: calls), steps: steps)
        let answered = await Self.serve(responder, "GET", "/answered")
        #expect(answered.status == .noContent)
        #expect(answered.headers["X-Step"] == "outer")
        _ = await Self.serve(responder, "GET", "/ready")
        #expect(calls.value == ["/ready"])
    }

    @Test func corsAppliesToPublicRoutesAndAnswersTheirOptions() async {
        let responder = PipelineResponder(router: Self.router(),
                                          steps: CORSStep(CORSPolicy(allowedOrigins: ["*"])))
        let ready = await Self.serve(responder, "GET", "/ready")
        #expect(ready.headers["Access-Control-Allow-Origin"] == "*")
        let later = await Self.serve(responder, "GET", "/later")
        #expect(later.headers["Access-Control-Allow-Origin"] == "*")
        let hidden = await Self.serve(responder, "GET", "/private")
        #expect(hidden.headers["Access-Control-Allow-Origin"] == nil)
        let options = await Self.serve(responder, "OPTIONS", "/ready")
        #expect(options.status == .noContent)
        #expect(options.headers["Allow"] == CORSPolicy.allow)
        #expect(options.headers.values(for: "Access-Control-Allow-Origin") == ["*"])
        let privateOptions = await Self.serve(responder, "OPTIONS", "/private")
        #expect(privateOptions.status == .methodNotAllowed)
        #expect(privateOptions.headers["Access-Control-Allow-Origin"] == nil)
    }
}
