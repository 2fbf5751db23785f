/// The methods and field names nearly every request carries, handed out as `String` literals
/// instead of being decoded from the request's bytes.
///
/// Decoding even a short `String` validates its bytes as UTF-8 and builds the value (about a
/// hundred instructions); a cached hit decoded a method and two or three field names that are
/// always the same words. A literal costs nothing to make and is equal to the decoded text,
/// so only bytes that match a literal exactly (case included: a field name keeps the case it
/// was sent in) take this path; anything else is decoded as before.
enum CommonTokens {
    /// The method, if it is one of the registered methods almanac serves or refuses by name.
    static func method(_ bytes: ParseBytes) -> String? {
        switch bytes.count {
        case 3:
            if bytes.equalsExactly("GET") { return "GET" }
            if bytes.equalsExactly("PUT") { return "PUT" }
        case 4:
            if bytes.equalsExactly("HEAD") { return "HEAD" }
            if bytes.equalsExactly("POST") { return "POST" }
        case 5:
            if bytes.equalsExactly("PATCH") { return "PATCH" }
        case 6:
            if bytes.equalsExactly("DELETE") { return "DELETE" }
        case 7:
            if bytes.equalsExactly("OPTIONS") { return "OPTIONS" }
        default:
            break
        }
        return nil
    }

    /// The field name, if it is one that clients commonly send, spelled as they commonly spell it.
    static func fieldName(_ bytes: ParseBytes) -> String? {
        switch bytes.count {
        case 4:
            if bytes.equalsExactly("Host") { return "Host" }
            if bytes.equalsExactly("host") { return "host" }
        case 6:
            if bytes.equalsExactly("Accept") { return "Accept" }
            if bytes.equalsExactly("accept") { return "accept" }
            if bytes.equalsExactly("Origin") { return "Origin" }
        case 10:
            if bytes.equalsExactly("User-Agent") { return "User-Agent" }
            if bytes.equalsExactly("user-agent") { return "user-agent" }
            if bytes.equalsExactly("Connection") { return "Connection" }
        case 11:
            if bytes.equalsExactly("traceparent") { return "traceparent" }
        case 12:
            if bytes.equalsExactly("X-Request-ID") { return "X-Request-ID" }
        case 13:
            if bytes.equalsExactly("If-None-Match") { return "If-None-Match" }
            if bytes.equalsExactly("Cache-Control") { return "Cache-Control" }
        case 15:
            if bytes.equalsExactly("Accept-Encoding") { return "Accept-Encoding" }
            if bytes.equalsExactly("accept-encoding") { return "accept-encoding" }
            if bytes.equalsExactly("Accept-Language") { return "Accept-Language" }
        default:
            break
        }
        return nil
    }
}
