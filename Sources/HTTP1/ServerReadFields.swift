/// Which of the fields the server itself reads for every request (`X-Request-ID`,
/// `traceparent`) a request carries, as the parser saw them go by.
///
/// The parser already switches on every field name's length to find the framing fields, so
/// noting these two costs a comparison; the connection then looks a field up only when it was
/// sent, instead of walking every field twice on each request (most requests carry neither).
/// A request built by hand (tests, fuzzers) has not been seen by the parser: `unknown`, and
/// the fields are looked up as before.
struct ServerReadFields: OptionSet, Sendable {
    let rawValue: UInt8

    static let requestID = ServerReadFields(rawValue: 1)
    static let traceparent = ServerReadFields(rawValue: 2)
    /// Not seen by the parser: every field may be present.
    static let unknown: ServerReadFields = [.requestID, .traceparent]
}
