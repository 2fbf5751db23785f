import Foundation

/// A file system for a configuration loader under test: path → contents, nil for any other
/// path (the shape of `ConfigurationLoader.FileReader`).
public func files(_ contents: [String: String]) -> @Sendable (String) throws -> Data? {
    { path in contents[path].map { Data($0.utf8) } }
}
