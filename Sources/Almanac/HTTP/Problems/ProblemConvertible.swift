import HTTP1
import Web

/// A failure that says once, in one place, how a client is told about it: the problem (status,
/// type slug, title, detail) it becomes. Every domain error a route can meet conforms once, in
/// an extension in this module (the domains do not know HTTP), so routes never build problems
/// by hand and never switch over error types: they hand any error to `ProblemMapping`, which
/// fills in the request id and logs what no one logged yet.
protocol ProblemConvertible: Error {
    /// The problem a client reads. `requestID` is the id to name in the detail of a failure
    /// an operator looks up by it (upstream failures); client mistakes ignore it.
    func problem(requestID: String) -> Problem

    /// Whether telling a client about this failure writes a warn line (`logAnswer`). Such a
    /// failure met on a synchronous cache hit is answered on the asynchronous path, where the
    /// line carries the request's trace (`CachedEndpoint`).
    var writesWarnLine: Bool { get }

    /// Writes the warn line this failure owes when a client is told about it; most failures
    /// were logged when they happened (`UpstreamFailureLog`) and write nothing here.
    func logAnswer(requestID: String, to logger: Logger)
}

extension ProblemConvertible {
    var writesWarnLine: Bool { false }
    func logAnswer(requestID: String, to logger: Logger) {}
}

/// A problem a route already has (a parsed ISBN's 400, a Google-envelope 404) is itself.
extension Problem: ProblemConvertible {
    func problem(requestID: String) -> Problem { self }
}
