/// How the client speaks TLS to Redis (`rediss://`): whom to trust, which name to check, and an
/// optional client certificate. Verification is on unless the operator turns it off; with it
/// on, the server's chain must lead to `caFile` (or the system's trust store when there is
/// none) and its certificate must name `serverName` (or the URL's host), as a DNS name or an IP
/// address.
public struct RedisTLSConfiguration: Sendable, Equatable {
    /// PEM file of the certificate authorities to trust; nil: the system's default store.
    public var caFile: String?
    /// PEM client certificate (chain) and its key, for servers that require one
    /// (`tls-auth-clients yes`). Both or neither.
    public var certFile: String?
    public var keyFile: String?
    /// The name checked against the certificate and sent as SNI; nil: the host being connected to.
    public var serverName: String?
    /// False only by the operator's choice (a warning is logged at start): the connection is
    /// encrypted but anyone on the path can pretend to be Redis.
    public var verify: Bool

    public init(caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil,
                serverName: String? = nil, verify: Bool = true) {
        self.caFile = caFile
        self.certFile = certFile
        self.keyFile = keyFile
        self.serverName = serverName
        self.verify = verify
    }
}
