import HTTPClient
import HTTPClientTestSupport
import Testing
@testable import Upstream

/// The chain's one set of rules, with answers that are plain strings: "a+b" means a's answer
/// filled by b's.
@Suite struct ProviderChainTests {
    let client = StubHTTPClient { _ in StubHTTPClient.json("{}") }

    func provider(_ name: String, _ outcome: @escaping @Sendable () throws -> String?) -> ProviderChain<String>.Provider {
        .init(name: name) { _ in try outcome() }
    }

    func merging(_ providers: [ProviderChain<String>.Provider]) -> ProviderChain<String> {
        ProviderChain(providers, client: client, mergingUntil: { $0.split(separator: "+").count >= 2 },
                      merge: { $0 + "+" + $1 })
    }

    @Test func firstAnswerWinsAndLaterProvidersAreNotAsked() async throws {
        let chain = ProviderChain([provider("a") { "A" }, provider("b") { Issue.record("b asked"); return "B" }],
                                  client: client)
        #expect(try await chain.answer() == "A")
    }

    @Test func notFoundAndFailuresFallThrough() async throws {
        let chain = ProviderChain([provider("a") { nil },
                                   provider("b") { throw UpstreamError(.connectionRefused, provider: "b", detail: "refused") },
                                   provider("c") { "C" }], client: client)
        #expect(try await chain.answer() == "C")
    }

    @Test func everyoneNotFoundIsNil() async throws {
        let chain = ProviderChain([provider("a") { nil }, provider("b") { nil }], client: client)
        #expect(try await chain.answer() == nil)
    }

    @Test func nothingFoundAndAFailureThrowsEveryFailureInOrder() async throws {
        let chain = ProviderChain([provider("a") { throw UpstreamError(.timeout, provider: "a", detail: "slow") },
                                   provider("b") { nil },
                                   provider("c") { throw UpstreamError(.malformed, provider: "c", detail: "field x") }],
                                  client: client)
        await #expect(throws: ProvidersUnavailable(failures: [
            UpstreamError(.timeout, provider: "a", detail: "slow"),
            UpstreamError(.malformed, provider: "c", detail: "field x"),
        ])) { try await chain.answer() }
    }

    @Test func mergesWhileIncompleteThenStops() async throws {
        let chain = merging([provider("a") { "A" }, provider("b") { "B" }, provider("c") { Issue.record("c asked"); return "C" }])
        #expect(try await chain.answer() == "A+B")
    }

    @Test func aFailingFillerKeepsWhatWasFound() async throws {
        let chain = merging([provider("a") { "A" }, provider("b") { throw UpstreamError(.timeout, provider: "b", detail: "") }])
        #expect(try await chain.answer() == "A")
    }

    @Test func otherErrorsAreReportedAsOtherUnderTheProvidersName() async throws {
        struct Odd: Error {}
        let chain = ProviderChain([provider("a") { throw Odd() }], client: client)
        do {
            _ = try await chain.answer()
            Issue.record("expected a failure")
        } catch let unavailable as ProvidersUnavailable {
            #expect(unavailable.failures.map(\.kind) == [.other])
            #expect(unavailable.failures.map(\.provider) == ["a"])
        }
    }

    @Test func cancellationIsCancellationErrorFromEitherSource() async throws {
        let upstreamCancelled = ProviderChain([provider("a") { throw UpstreamError(.cancelled, provider: "a", detail: "") },
                                               provider("b") { "B" }], client: client)
        await #expect(throws: CancellationError.self) { try await upstreamCancelled.answer() }
        let taskCancelled = ProviderChain([provider("a") { throw CancellationError() }, provider("b") { "B" }], client: client)
        await #expect(throws: CancellationError.self) { try await taskCancelled.answer() }
    }

    @Test func timeoutRules() {
        let timeout = UpstreamError(.timeout, provider: "a", detail: "")
        let refused = UpstreamError(.connectionRefused, provider: "b", detail: "")
        #expect(ProvidersUnavailable(failures: [timeout, timeout]).isTimeout)
        #expect(!ProvidersUnavailable(failures: [timeout, refused]).isTimeout)
        #expect(!ProvidersUnavailable(failures: []).isTimeout)
        #expect(!ProvidersUnavailable(failures: [timeout], skipped: [ProviderSkipped(provider: "b", reason: .cooldown, availableInSeconds: 1)]).isTimeout)
        #expect(ProvidersUnavailable(failures: []).description == "no provider is configured")
    }

    @Test func noProvidersIsAnEmptyFailureForFirstAnswer() async {
        await #expect(throws: ProvidersUnavailable(failures: [])) {
            try await ProviderChain<String>([], client: client).firstAnswer()
        }
    }

    @Test func successIsExactly200() throws {
        try UpstreamSuccess.require(UpstreamResponse(status: 200), provider: "p")
        for status in [201, 204, 206, 301, 404, 429, 503] {
            #expect(throws: UpstreamError(.other, provider: "p", detail: "HTTP \(status)")) {
                try UpstreamSuccess.require(UpstreamResponse(status: status), provider: "p")
            }
        }
    }
}
