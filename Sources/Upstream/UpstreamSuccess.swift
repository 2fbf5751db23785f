import HTTPClient

/// What counts as a provider's answer, for every domain: exactly `200 OK`.
///
/// An API GET's other 2xx statuses do not carry the document asked for (204 has no body, 206
/// a part of it, 202 a promise), and anything else (429 quota, 5xx, a 404 from an API whose
/// "not found" is a 200 with an empty result) must fall through to the next provider rather
/// than be decoded, let alone cached as an answer.
public enum UpstreamSuccess {
    /// Throws `.other` naming the status ("HTTP 503", public wording) unless `response` is a
    /// 200; `url` (redacted) goes with the error to the operator's log line, never to clients.
    public static func require(_ response: UpstreamResponse, provider: String, url: String? = nil) throws(UpstreamError) {
        guard response.status == 200 else {
            throw UpstreamError(.other, provider: provider, detail: "HTTP \(response.status)", url: url)
        }
    }
}
