/// A request field the pipeline's steps read on every request, which the parser notes as it
/// goes by (`HTTPRequest.values(of:)`): asking for one the request did not send reads no field.
public enum TrackedRequestField: Sendable, CaseIterable {
    case ifNoneMatch, acceptEncoding, origin

    /// The field's name as the steps spell it.
    public var name: String {
        switch self {
        case .ifNoneMatch: return "If-None-Match"
        case .acceptEncoding: return "Accept-Encoding"
        case .origin: return "Origin"
        }
    }

    var bit: ServerReadFields {
        switch self {
        case .ifNoneMatch: return .ifNoneMatch
        case .acceptEncoding: return .acceptEncoding
        case .origin: return .origin
        }
    }
}
