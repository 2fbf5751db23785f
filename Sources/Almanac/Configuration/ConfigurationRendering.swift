import Foundation

extension AlmanacConfiguration {
    /// The effective configuration as pretty, key-sorted JSON, secrets shown as `***`, for
    /// `check-config`: operators see what the process will really use, never the secrets.
    public var redactedJSON: String {
        var root: [String: Any] = [:]
        for key in ConfigurationKey.all(for: self) {
            AlmanacConfiguration.insert(key.render(self), at: key.path.split(separator: ".").map(String.init), into: &root)
        }
        let data = (try? JSONSerialization.data(
            withJSONObject: root, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    private static func insert(_ value: Any, at path: [String], into object: inout [String: Any]) {
        guard let first = path.first else { return }
        if path.count == 1 {
            object[first] = value
            return
        }
        var child = object[first] as? [String: Any] ?? [:]
        insert(value, at: Array(path.dropFirst()), into: &child)
        object[first] = child
    }
}
