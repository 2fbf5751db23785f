extension Duration {
    /// The duration in seconds, as a `Double` (for deadlines, metrics and waits).
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
