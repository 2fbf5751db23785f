// OpenSSL for the Redis client's TLS (rediss://). Swift cannot call OpenSSL's function-like
// macros (SSL_set_tlsext_host_name, SSL_CTX_set_mode, …) or read its error-queue macros, so
// each one it needs gets a typed inline wrapper here.
#ifndef ALMANAC_COPENSSL_SHIM_H
#define ALMANAC_COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>

/// Server Name Indication: the name the server picks its certificate by.
static inline int copenssl_set_sni(SSL *ssl, const char *name) { return (int)SSL_set_tlsext_host_name(ssl, name); }

/// Partial writes and a write buffer that may move between retries: the client's output
/// buffer is a Swift array that grows while a write waits for the socket.
static inline void copenssl_ctx_set_nonblocking_modes(SSL_CTX *ctx) {
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
}

/// TLS 1.2 at least.
static inline int copenssl_ctx_set_min_tls12(SSL_CTX *ctx) { return (int)SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION); }

#endif
