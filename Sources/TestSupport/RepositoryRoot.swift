import Foundation

/// The root of this checkout, for tests that read checked-in files (config/almanac.json, docs/,
/// the fuzz corpora, the Python drivers under Tests/) or run its scripts (bench/lib.sh):
/// two directories above this file (Sources/TestSupport/).
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
