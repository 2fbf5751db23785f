import CCurl

/// Why one of our own callbacks stopped a transfer; libcurl then reports CURLE_WRITE_ERROR,
/// which on its own says nothing about the cause.
enum TransferAbort: Sendable, Equatable {
    case tooLarge(String)
    case malformed(String)
    /// The answer started, then trickled below the stall guard's rate (`StallGuard`).
    case stalled(String)
}

/// Maps libcurl's result codes (as returned by 7.88) onto `UpstreamError.Kind`.
enum CurlErrorMapping {
    static func kind(for code: CURLcode, abort: TransferAbort?) -> UpstreamError.Kind {
        switch abort {
        case .tooLarge?: return .tooLarge
        case .malformed?: return .malformed
        case .stalled?: return .timeout
        case nil: break
        }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return .dns
        case CURLE_COULDNT_CONNECT:
            return .connectionRefused
        case CURLE_OPERATION_TIMEDOUT:
            return .timeout
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING:
            // A peer that resets or closes before answering.
            return .connectionReset
        case CURLE_PARTIAL_FILE:
            // "transfer closed with N bytes remaining": short of Content-Length, or a cut chunked body.
            return .truncated
        case CURLE_UNSUPPORTED_PROTOCOL:
            // URLs are checked to be http(s) before curl sees them, so this is the answer's fault:
            // 7.88 reports a response without an `HTTP/` status line ("HTTP/0.9") this way.
            return .malformed
        case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_HTTP2, CURLE_HTTP2_STREAM,
             CURLE_HTTP3, CURLE_UNKNOWN_OPTION:
            return .malformed
        case CURLE_FILESIZE_EXCEEDED:
            return .tooLarge
        case CURLE_TOO_MANY_REDIRECTS:
            return .redirected
        case CURLE_URL_MALFORMAT:
            return .invalidURL
        case CURLE_ABORTED_BY_CALLBACK:
            return .cancelled
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
             CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ENGINE_INITFAILED,
             CURLE_SSL_CACERT_BADFILE, CURLE_SSL_SHUTDOWN_FAILED, CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CLIENTCERT, CURLE_USE_SSL_FAILED:
            return .tls
        default:
            return .other
        }
    }

    /// The cause of a transfer failure as a client may read it: a class, never libcurl's own
    /// message (which names hosts, addresses and ports: "Failed to connect to 10.0.0.7 port
    /// 8080"); that message goes to the log line as the error's diagnostic.
    /// `waitedMs`: how long the call had waited when it timed out (never the configured limit
    /// alone: a stalled answer is cut long before it).
    static func publicCause(of kind: UpstreamError.Kind, waitedMs: Int, maxResponseBytes: Int) -> String {
        switch kind {
        case .dns: return "host name lookup failed"
        case .connectionRefused: return "connection refused"
        case .connectionReset: return "connection closed before a complete answer"
        case .tls: return "TLS handshake or certificate check failed"
        case .timeout: return "timed out after \(waitedMs) ms"
        case .tooLarge: return "answer larger than \(maxResponseBytes) bytes"
        case .malformed: return "malformed answer (not valid HTTP/1.1)"
        case .truncated: return "answer cut short"
        case .redirected: return "redirected"
        case .invalidURL: return "upstream request refused"
        case .cancelled: return "cancelled"
        case .other: return "transfer failed"
        }
    }

    /// libcurl's message for `code` (used when the error buffer is empty).
    static func message(for code: CURLcode) -> String {
        guard let text = curl_easy_strerror(code) else { return "curl error \(code.rawValue)" }
        return String(cString: text)
    }
}
