import COpenSSL
import Glibc

/// TLS on one non-blocking socket: `SSL_connect`, `SSL_read` and `SSL_write` never block; when
/// one needs the socket to become readable or writable first it says so (`wantRead` /
/// `wantWrite`) and `RedisConnection` sets its poller interest accordingly and calls again when
/// the poller reports it. The peer is checked while connecting: its chain against the context's
/// trust store and, with verification on, its certificate against the expected name (a DNS name,
/// or an IP address matched against the certificate's IP entries).
final class RedisTLSSession {
    private let ssl: OpaquePointer
    private let expectedName: String
    private let verifying: Bool

    enum Progress: Equatable {
        case done
        case wantRead
        case wantWrite
        case failed(String)
    }

    enum Transfer: Equatable {
        case bytes(Int)
        case wantRead
        case wantWrite
        /// The server closed the connection (cleanly or not).
        case closed
        case failed(String)

        /// Why the connection ends, for `.closed` and `.failed`; nil for the others.
        var endingReason: String? {
            switch self {
            case .closed: return "connection closed by the server"
            case .failed(let reason): return reason
            case .bytes, .wantRead, .wantWrite: return nil
            }
        }
    }

    /// A session on connected socket `fd` expecting a certificate for `name`.
    static func make(context: RedisTLSContext, fd: Int32, name: String) -> Result<RedisTLSSession, RedisTLSFailure> {
        ERR_clear_error()
        guard let ssl = SSL_new(context.handle) else {
            return .failure(RedisTLSFailure("cannot create a TLS session: \(RedisTLSFailure.openSSLErrors())"))
        }
        let session = RedisTLSSession(ssl: ssl, expectedName: name, verifying: context.configuration.verify)
        guard SSL_set_fd(ssl, fd) == 1 else {
            return .failure(RedisTLSFailure("cannot attach TLS to the socket: \(RedisTLSFailure.openSSLErrors())"))
        }
        let isAddress = Self.isIPAddress(name)
        // SNI carries names only (RFC 6066 forbids literal addresses).
        if !isAddress && !name.isEmpty { _ = copenssl_set_sni(ssl, name) }
        if context.configuration.verify {
            let accepted = isAddress
                ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name)
                : SSL_set1_host(ssl, name)
            guard accepted == 1 else {
                return .failure(RedisTLSFailure("cannot check the certificate against \(name)"))
            }
        }
        return .success(session)
    }

    private init(ssl: OpaquePointer, expectedName: String, verifying: Bool) {
        self.ssl = ssl
        self.expectedName = expectedName
        self.verifying = verifying
    }

    deinit {
        SSL_free(ssl)
    }

    /// One step of the handshake.
    func handshake() -> Progress {
        ERR_clear_error()
        let rc = SSL_connect(ssl)
        if rc == 1 { return .done }
        let error = SSL_get_error(ssl, rc)
        switch error {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        default:
            let verdict = SSL_get_verify_result(ssl)
            if verifying && verdict != Int(X509_V_OK) {
                let text = String(cString: X509_verify_cert_error_string(verdict))
                return .failed("certificate not accepted for \(expectedName): \(text)")
            }
            return .failed(reason(error, rc: rc, during: "handshake"))
        }
    }

    /// Decrypted bytes into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Transfer {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return .bytes(0) }
        ERR_clear_error()
        let rc = SSL_read(ssl, base, Int32(clamping: buffer.count))
        if rc > 0 { return .bytes(Int(rc)) }
        return outcome(rc, during: "read")
    }

    /// Encrypts and sends a prefix of `bytes`. After `wantRead`/`wantWrite` the same bytes must
    /// be offered again (they may have moved: the context accepts a moving buffer).
    func write(_ bytes: UnsafeRawBufferPointer) -> Transfer {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return .bytes(0) }
        ERR_clear_error()
        let rc = SSL_write(ssl, base, Int32(clamping: bytes.count))
        if rc > 0 { return .bytes(Int(rc)) }
        return outcome(rc, during: "write")
    }

    /// Decrypted bytes already inside OpenSSL: the poller will not report them.
    var bufferedBytes: Int { Int(SSL_pending(ssl)) }

    /// Sends close_notify without waiting for the peer's (the socket is closed right after).
    func close() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        ERR_clear_error()
    }

    private func outcome(_ rc: Int32, during step: String) -> Transfer {
        let error = SSL_get_error(ssl, rc)
        switch error {
        case SSL_ERROR_WANT_READ: return .wantRead
        case SSL_ERROR_WANT_WRITE: return .wantWrite
        case SSL_ERROR_ZERO_RETURN: return .closed
        case SSL_ERROR_SYSCALL where errno == 0: return .closed
        default: return .failed(reason(error, rc: rc, during: step))
        }
    }

    private func reason(_ error: Int32, rc: Int32, during step: String) -> String {
        if error == SSL_ERROR_SYSCALL {
            let code = errno
            return code == 0 ? "TLS \(step): connection closed by the server"
                : "TLS \(step): \(RedisSocket.errorText(code))"
        }
        return "TLS \(step) failed: \(RedisTLSFailure.openSSLErrors())"
    }

    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}
