import Foundation

/// Why the configuration file could not be read, in the words an operator needs to fix it
/// (Foundation's own errors read "NSCocoaErrorDomain error 256" for a directory).
public enum ConfigurationFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path names a directory; the flag wants the JSON file inside it.
    case isDirectory
    /// The process may not read it (mode or ownership).
    case permissionDenied
    /// Any other failure, with the operating system's own words.
    case unreadable(String)

    public var description: String {
        switch self {
        case .isDirectory: "is a directory, not a file: name the JSON file itself (e.g. config/almanac.json)"
        case .permissionDenied: "cannot be read: permission denied (check the file's mode and owner)"
        case let .unreadable(reason): "cannot be read: \(reason)"
        }
    }

    /// Classifies a Foundation read error by its underlying POSIX error.
    init(_ error: any Error) {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        switch (underlying?.domain, underlying?.code) {
        case (NSPOSIXErrorDomain, Int(EISDIR)): self = .isDirectory
        case (NSPOSIXErrorDomain, Int(EACCES)), (NSPOSIXErrorDomain, Int(EPERM)): self = .permissionDenied
        default: self = .unreadable(underlying?.localizedDescription ?? error.localizedDescription)
        }
    }
}
