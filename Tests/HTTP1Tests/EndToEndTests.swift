import Testing

/// Every test that runs a real server over sockets; serialized so that a 2-core machine
/// shared with builds never turns a deadline into a flake.
@Suite(.serialized) struct EndToEnd {}
