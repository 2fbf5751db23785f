import COpenSSL

/// The OpenSSL context every TLS connection of one client is made from: the trust store, the
/// client certificate, verification on or off. Built once per client from its
/// `RedisTLSConfiguration`; a file that cannot be loaded is a reason every connection attempt
/// reports (the client stays down, as with an unreachable server) rather than a crash.
final class RedisTLSContext: @unchecked Sendable {
    /// The `SSL_CTX`; OpenSSL makes it safe to share between connections once configured.
    let handle: OpaquePointer
    let configuration: RedisTLSConfiguration

    private init(handle: OpaquePointer, configuration: RedisTLSConfiguration) {
        self.handle = handle
        self.configuration = configuration
    }

    deinit {
        SSL_CTX_free(handle)
    }

    /// A context for `configuration`, or why none can be made (a file's path, never its content).
    static func make(_ configuration: RedisTLSConfiguration) -> Result<RedisTLSContext, RedisTLSFailure> {
        ERR_clear_error()
        guard let handle = SSL_CTX_new(TLS_client_method()) else {
            return .failure(RedisTLSFailure("cannot create a TLS context: \(RedisTLSFailure.openSSLErrors())"))
        }
        let context = RedisTLSContext(handle: handle, configuration: configuration)
        guard copenssl_ctx_set_min_tls12(handle) == 1 else {
            return .failure(RedisTLSFailure("cannot require TLS 1.2: \(RedisTLSFailure.openSSLErrors())"))
        }
        copenssl_ctx_set_nonblocking_modes(handle)
        SSL_CTX_set_verify(handle, configuration.verify ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, nil)
        if let caFile = configuration.caFile {
            guard SSL_CTX_load_verify_locations(handle, caFile, nil) == 1 else {
                return .failure(RedisTLSFailure("cannot load cache.redis.tls.caFile \(caFile): \(RedisTLSFailure.openSSLErrors())"))
            }
        } else if configuration.verify {
            guard SSL_CTX_set_default_verify_paths(handle) == 1 else {
                return .failure(RedisTLSFailure("cannot load the system's trusted certificates: \(RedisTLSFailure.openSSLErrors())"))
            }
        }
        if let certFile = configuration.certFile {
            guard SSL_CTX_use_certificate_chain_file(handle, certFile) == 1 else {
                return .failure(RedisTLSFailure("cannot load cache.redis.tls.certFile \(certFile): \(RedisTLSFailure.openSSLErrors())"))
            }
        }
        if let keyFile = configuration.keyFile {
            guard SSL_CTX_use_PrivateKey_file(handle, keyFile, SSL_FILETYPE_PEM) == 1 else {
                return .failure(RedisTLSFailure("cannot load cache.redis.tls.keyFile \(keyFile): \(RedisTLSFailure.openSSLErrors())"))
            }
            guard SSL_CTX_check_private_key(handle) == 1 else {
                return .failure(RedisTLSFailure("cache.redis.tls.keyFile does not match cache.redis.tls.certFile"))
            }
        }
        return .success(context)
    }
}

/// Why TLS could not be set up or a handshake failed; never holds key material.
struct RedisTLSFailure: Error, Sendable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }

    /// The reasons on OpenSSL's error queue (oldest first, at most four), emptying it.
    static func openSSLErrors() -> String {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            guard code != 0 else { break }
            guard reasons.count < 4 else { continue }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return reasons.isEmpty ? "no detail from OpenSSL" : reasons.joined(separator: "; ")
    }
}
