/// Which of the fields read for every request (`X-Request-ID`, `traceparent` by the server;
/// `If-None-Match`, `Accept-Encoding`, `Origin` by the pipeline's steps) a request carries, as
/// the parser saw them go by.
///
/// The parser already switches on every field name's length to find the framing fields, so
/// noting these costs a comparison; a field is then looked up only when it was sent, instead
/// of every request walking its fields once per name (most requests carry none of them).
/// A request built by hand (tests, fuzzers), or whose fields were changed after parsing, has
/// not been (or is no longer) what the parser saw: `unknown`, and the fields are looked up.
struct ServerReadFields: OptionSet, Sendable {
    let rawValue: UInt8

    static let requestID = ServerReadFields(rawValue: 1)
    static let traceparent = ServerReadFields(rawValue: 2)
    static let ifNoneMatch = ServerReadFields(rawValue: 4)
    static let acceptEncoding = ServerReadFields(rawValue: 8)
    static let origin = ServerReadFields(rawValue: 16)
    /// Not seen by the parser: every field may be present.
    static let unknown: ServerReadFields = [.requestID, .traceparent, .ifNoneMatch, .acceptEncoding, .origin]
}
