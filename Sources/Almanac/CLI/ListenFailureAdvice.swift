import Foundation
import HTTP1
import Transport

/// Turns a failure to open the listening socket into a sentence that names the setting to
/// change, because "bind(0.0.0.0:8080): Address already in use (errno 98)" leaves an operator
/// to guess which of file, environment, `PORT` or flag put 8080 there.
enum ListenFailureAdvice {
    static let portSettings = "server.port (ALMANAC_SERVER_PORT, PORT or --port)"
    static let hostSettings = "server.host (ALMANAC_SERVER_HOST or --host)"

    static func describe(_ error: any Error, host: String, port: Int) -> String {
        guard let socketError = error as? SocketError else { return "\(error)" }
        if socketError.call.hasPrefix("getaddrinfo") {
            return "\(host) is not a host name or address this machine can resolve (\(socketError.call)): "
                + "set \(hostSettings), e.g. 0.0.0.0 for every IPv4 interface"
        }
        guard socketError.call.hasPrefix("bind") else { return "\(socketError)" }
        switch socketError.errno {
        case EADDRINUSE:
            return "port \(port) on \(host) is already in use by another process: "
                + "set \(portSettings) to a free port, or stop the other process"
        case EACCES:
            return "binding to port \(port) needs privileges this process does not have: "
                + "set \(portSettings) to a port of 1024 or above"
        case EADDRNOTAVAIL:
            return "\(host) is not an address of this machine: "
                + "set \(hostSettings), e.g. 0.0.0.0 for every IPv4 interface"
        default:
            return "\(socketError)"
        }
    }
}
