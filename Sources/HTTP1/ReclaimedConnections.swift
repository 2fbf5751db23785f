/// How many connections the server closed to make room for new ones at `maxConnections`
/// (`HTTPServer.reclaimedConnections`), by the state they were in when closed.
public struct ReclaimedConnections: Sendable, Equatable {
    /// Idle between keep-alive requests.
    public var idle: Int
    /// Accepted, but no request begun.
    public var silent: Int

    public init(idle: Int = 0, silent: Int = 0) {
        self.idle = idle
        self.silent = silent
    }
}
