import Foundation
import Glibc

/// A throwaway PKI for TLS tests, made with the `openssl` command in a fresh temporary
/// directory: a CA, a server certificate it signed (for `localhost`, `redis.test` and
/// 127.0.0.1), a client certificate it signed, and a second, unrelated CA (the "wrong CA" a
/// client must refuse). Keys are EC P-256 so making them takes milliseconds even on a busy
/// machine. `remove()` deletes the directory.
public struct TestCertificates: Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public let directory: String
    public var caFile: String { directory + "/ca.crt" }
    public var otherCAFile: String { directory + "/other-ca.crt" }
    public var serverCertFile: String { directory + "/server.crt" }
    public var serverKeyFile: String { directory + "/server.key" }
    public var clientCertFile: String { directory + "/client.crt" }
    public var clientKeyFile: String { directory + "/client.key" }

    /// The `openssl` on PATH (Debian: /usr/bin/openssl), or nil.
    public static var opensslPath: String? {
        ChildProcess.installed("openssl")
    }

    public static func make() async throws -> TestCertificates {
        guard let openssl = opensslPath else {
            throw Failure(description: "openssl is not installed (make test-deps installs it)")
        }
        let directory = NSTemporaryDirectory() + "almanac-tls-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let certificates = TestCertificates(directory: directory)
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let steps: [[String]] = [
            ["req", "-x509"] + curve + ["-keyout", "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=almanac test CA"],
            ["req", "-x509"] + curve + ["-keyout", "other-ca.key", "-out", "other-ca.crt", "-days", "2", "-subj", "/CN=another CA"],
            ["req"] + curve + ["-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=redis.test"],
            ["x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
             "-out", "server.crt", "-days", "2", "-extfile", "server.ext"],
            ["req"] + curve + ["-keyout", "client.key", "-out", "client.csr", "-subj", "/CN=almanac"],
            ["x509", "-req", "-in", "client.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
             "-out", "client.crt", "-days", "2"],
        ]
        try Data("subjectAltName=DNS:localhost,DNS:redis.test,IP:127.0.0.1\n".utf8)
            .write(to: URL(fileURLWithPath: directory + "/server.ext"))
        for arguments in steps {
            let process = try ChildProcess(openssl, arguments, environment: [:], directory: directory,
                                           stderr: directory + "/openssl.log")
            let status = await process.exitStatus(within: 30)
            guard status == 0 else {
                throw Failure(description: "openssl \(arguments.prefix(2).joined(separator: " ")) failed (status \(String(describing: status))); see \(directory)/openssl.log")
            }
        }
        return certificates
    }

    /// `redis-server` options for a TLS-only server with these certificates (`--port 0`: no
    /// plain TCP); the TLS port itself is `RedisServerProcess`'s.
    public func redisServerArguments(requireClientCertificate: Bool = false) -> [String] {
        ["--tls-cert-file", serverCertFile, "--tls-key-file", serverKeyFile, "--tls-ca-cert-file", caFile,
         "--tls-auth-clients", requireClientCertificate ? "yes" : "no"]
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
