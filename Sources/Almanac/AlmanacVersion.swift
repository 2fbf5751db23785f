import CBuildInfo

/// The one place the release version lives: `--version`, the `Server` header, the default
/// upstream `User-Agent` and the `almanac_build_info` metric all read it, so they never disagree.
public enum AlmanacVersion {
    public static let string = "0.1.0"

    /// The git commit this binary was built from, or "unknown" when the build was not told
    /// (see Package.swift: `make` passes it as ALMANAC_COMMIT).
    public static let commit = String(cString: almanac_build_commit())

    /// `--version`: `almanac 0.1.0 (commit 1a2b3c4d5e6f)`.
    public static let versionLine = "almanac \(string) (commit \(commit))"

    /// Where operators (and upstream API owners reading their logs) find the project.
    public static let projectURL = "https://github.com/almanac-dev/almanac"

    /// `almanac/<version> (+<project URL>)`: identifies us to upstreams as Open Library asks;
    /// operators append a contact address through `upstream.userAgent`.
    public static let userAgent = "almanac/\(string) (+\(projectURL))"

    /// `almanac/<version>`, the `Server` response header.
    public static let serverName = "almanac/\(string)"

    /// The Swift language version the binary was compiled with (`almanac_build_info{swift}`).
    public static var swiftVersion: String {
        #if swift(>=7.0)
        return "7.x"
        #elseif swift(>=6.4)
        return "6.4"
        #elseif swift(>=6.3)
        return "6.3"
        #elseif swift(>=6.2)
        return "6.2"
        #elseif swift(>=6.1)
        return "6.1"
        #else
        return "6.0"
        #endif
    }
}
