import HTTPClient

/// The one way almanac asks its providers, for every domain (rates, books, history):
/// providers in configured order, each a name and a question.
///
/// - **Fall-through.** A provider that fails (transport error, timeout, an answer other than
///   `UpstreamSuccess`, a body it cannot decode) or has no answer (`nil`, "I do not know this
///   one") hands over to the next.
/// - **Completion.** The first answer is kept; while it is not complete (`isComplete`, by
///   default any answer is), later providers are asked in turn and `merge` fills it. Asking
///   one at a time, not all at once, spends a second provider's quota only when needed.
/// - **Outcome.** The (merged) answer as soon as it is complete or the list ends; `nil` only
///   when every provider was asked and said it has no answer (a cacheable "not found");
///   otherwise `ProvidersUnavailable` with every failure in order (nothing is cached). Once
///   something was found, a later provider's failure only costs what it would have filled.
/// - **Cancellation.** The caller is gone: the walk stops and `CancellationError` is thrown,
///   never a failure list.
/// - **Stewardship** (with a `Steward`): every request a provider makes is admitted by the
///   steward; a provider it holds back (`ProviderSkipped`) falls through like a failure. The
///   whole walk ends by `upstream.requestDeadlineMs`; each provider gets
///   `upstream.timeoutMs` of it, retries included, or what is left if that is less; a
///   provider reached with no time left is reported as a timeout, never silently dropped.
///   Every failure is also reported to the steward as it happens (`Steward.reportFailure`: the
///   app logs it), recovered by a later provider or not.
public struct ProviderChain<Answer: Sendable>: Sendable {
    /// One provider as the chain sees it.
    public struct Provider: Sendable {
        /// The provider's name, as in metrics, logs and problem details (`coinbase`).
        public var name: String
        /// Asks the provider through `client`: the answer, `nil` when it has none, or a throw
        /// (`UpstreamError`; anything else is reported as `.other`).
        public var ask: @Sendable (_ client: any HTTPClient) async throws -> Answer?

        public init(name: String, ask: @escaping @Sendable (_ client: any HTTPClient) async throws -> Answer?) {
            self.name = name
            self.ask = ask
        }
    }

    public var providers: [Provider]
    public var client: any HTTPClient
    /// Budgets, cooldowns, breakers and deadlines; nil: every request goes straight to
    /// `client`, bounded by its own timeout (tools, tests of a domain's rules).
    public var steward: Steward?
    /// Whether an answer needs nothing more: the walk stops at the first complete one.
    public var isComplete: @Sendable (Answer) -> Bool
    /// `base` with what it lacks filled from a later provider's answer.
    public var merge: @Sendable (_ base: Answer, _ filling: Answer) -> Answer

    /// First answer wins.
    public init(_ providers: [Provider], client: any HTTPClient, steward: Steward? = nil) {
        self.init(providers, client: client, steward: steward, mergingUntil: { _ in true }, merge: { base, _ in base })
    }

    /// Later providers fill the first answer while it is incomplete.
    public init(_ providers: [Provider], client: any HTTPClient, steward: Steward? = nil,
                mergingUntil isComplete: @escaping @Sendable (Answer) -> Bool,
                merge: @escaping @Sendable (_ base: Answer, _ filling: Answer) -> Answer) {
        self.providers = providers
        self.client = client
        self.steward = steward
        self.isComplete = isComplete
        self.merge = merge
    }

    /// Provider names in the order they are asked.
    public var names: [String] { providers.map(\.name) }

    /// The answer, nil when every provider said it has none; throws `ProvidersUnavailable` or
    /// `CancellationError`.
    /// - Parameter background: a cache refresh while a stale answer is served: it never
    ///   waits for a budget token and never spends a provider's last one.
    public func answer(background: Bool = false) async throws -> Answer? {
        var answer: Answer?
        var failures: [UpstreamError] = []
        var skipped: [ProviderSkipped] = []
        /// Every failure is kept for the caller and reported at once (logged with the request id),
        /// even when a later provider answers.
        func failed(_ failure: UpstreamError) {
            failures.append(failure)
            steward?.reportFailure(failure)
        }
        // The walk's deadline and each provider's share are on the steward's clock (the one
        // every steward decision uses, injected in tests), and the client reads time through
        // the deadline it is handed: a test's manual clock decides when it is spent, never
        // the real time a busy machine takes.
        let deadline = steward.map { $0.now() + Double(max(1, $0.configuration.requestDeadlineMs)) / 1000 }
        for provider in providers {
            if let answer, isComplete(answer) { break }
            try Task.checkCancellation()
            var client = self.client
            if let steward, let deadline {
                let now = steward.now()
                guard now < deadline else {
                    failed(UpstreamError(.timeout, provider: provider.name,
                        detail: "not asked: the request deadline of \(steward.configuration.requestDeadlineMs) ms was spent"))
                    continue
                }
                let share = min(deadline - now, Double(max(1, steward.configuration.providerTimeoutMs)) / 1000)
                client = StewardedClient(base: client, gate: StewardGate(steward: steward, background: background),
                                         deadline: UpstreamDeadline(clock: steward.clock, at: now + share))
            }
            do {
                guard let found = try await provider.ask(client) else { continue }
                answer = answer.map { merge($0, found) } ?? found
            } catch let error as UpstreamError {
                if error.kind == .cancelled { throw CancellationError() }
                failed(error)
            } catch let skip as ProviderSkipped {
                skipped.append(skip)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                failed(UpstreamError(.other, provider: provider.name, detail: String(describing: error)))
            }
        }
        if let answer { return answer }
        guard failures.isEmpty, skipped.isEmpty else {
            throw ProvidersUnavailable(failures: failures, skipped: skipped)
        }
        return nil
    }

    /// For domains where a provider always has an answer or fails (rates): the answer, or
    /// `ProvidersUnavailable` (also when no provider is configured).
    public func firstAnswer(background: Bool = false) async throws -> Answer {
        guard let answer = try await answer(background: background) else { throw ProvidersUnavailable(failures: []) }
        return answer
    }
}
