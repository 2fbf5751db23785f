import Foundation

/// The command-line values that take part in configuration (highest precedence).
public struct ConfigurationFlags: Sendable, Equatable {
    /// `--config PATH`.
    public var configPath: String?
    /// `--host H`.
    public var host: String?
    /// `--port N`, as typed; validated like every other value (0 allowed here only).
    public var port: String?
    public init(configPath: String? = nil, host: String? = nil, port: String? = nil) {
        self.configPath = configPath
        self.host = host
        self.port = port
    }
}

/// Every problem found while loading, one line each, naming the key and what was expected.
public struct ConfigurationErrors: Error, Sendable, Equatable, CustomStringConvertible {
    public var problems: [String]
    public init(problems: [String]) { self.problems = problems }
    public var description: String { problems.joined(separator: "\n") }
}

/// Builds the effective configuration: built-in defaults < JSON file < environment < flags
/// (docs/operations.md "Configuration"). Pure apart from `fileReader`, so tests need no files.
public enum ConfigurationLoader {
    /// Reads a file: its bytes, nil when it does not exist; throws when it cannot be read.
    public typealias FileReader = (String) throws -> Data?

    /// Used when neither `--config` nor `ALMANAC_CONFIG` names a file, and only if it exists.
    public static let defaultPath = "config/almanac.json"

    /// Environment variables with a meaning of their own besides the keys: `ALMANAC_CONFIG`
    /// names the file; `ALMANAC_COMMIT` is read at build time (the commit `--version` prints;
    /// the Makefile exports it), so a process started from `make` or a CI shell that still has
    /// it must not be refused for it.
    static let reservedEnvironment: Set<String> = ["ALMANAC_CONFIG", "ALMANAC_COMMIT"]

    public static func load(
        flags: ConfigurationFlags,
        environment: [String: String],
        fileReader: FileReader = ConfigurationLoader.readFile,
        defaults: AlmanacConfiguration = AlmanacConfiguration()
    ) -> Result<AlmanacConfiguration, ConfigurationErrors> {
        var config = defaults
        var problems: [String] = []
        let keys = ConfigurationKey.all(for: defaults)

        // 1. The JSON file.
        let envConfig = environment["ALMANAC_CONFIG"].flatMap { $0.isEmpty ? nil : $0 }
        let (path, origin, explicit): (String, String, Bool) =
            if let p = flags.configPath { (p, "--config", true) }
            else if let p = envConfig { (p, "ALMANAC_CONFIG", true) }
            else { (defaultPath, "default location", false) }
        do {
            if let data = try fileReader(path) {
                apply(fileData: data, path: path, keys: keys, to: &config, problems: &problems)
            } else if explicit {
                problems.append("config: file \(path) (from \(origin)) does not exist")
            }
        } catch {
            let reason = error as? ConfigurationFileError ?? ConfigurationFileError(error)
            problems.append("config: \(path) (from \(origin)) \(reason)")
        }

        // 2. The environment.
        let byName = Dictionary(keys.map { ($0.environmentName, $0) }, uniquingKeysWith: { a, _ in a })
        for name in environment.keys.sorted() where name.hasPrefix("ALMANAC_") {
            guard let value = environment[name], !reservedEnvironment.contains(name) else { continue }
            guard let key = byName[name] else {
                problems.append("\(name): unknown environment variable (no configuration key has this name)"
                    + didYouMean(name, among: keys.map(\.environmentName)))
                continue
            }
            set(key, .text(value), source: name, on: &config, problems: &problems)
        }
        if environment["ALMANAC_SERVER_PORT"] == nil, let port = environment["PORT"],
           let key = keys.first(where: { $0.path == "server.port" }) {
            set(key, .text(port), source: "PORT", on: &config, problems: &problems)
        }

        // 3. Flags. Port 0 (an ephemeral port, for tests) is allowed only here.
        if let host = flags.host, let key = keys.first(where: { $0.path == "server.host" }) {
            set(key, .text(host), source: "--host", on: &config, problems: &problems)
        }
        if let port = flags.port {
            set(.integer("server.port", \.server.http.port, 0...65535), .text(port), source: "--port",
                on: &config, problems: &problems)
        }

        // 4. Rules across keys (a URL and sentinels, TLS settings without TLS, unreadable files).
        problems += config.redisCombinationProblems(isReadable: { path in ((try? fileReader(path)) ?? nil) != nil })

        return problems.isEmpty ? .success(config) : .failure(ConfigurationErrors(problems: problems))
    }

    /// The real file system: nil when the file does not exist; a `ConfigurationFileError` in
    /// plain words when it cannot be read.
    public static func readFile(_ path: String) throws -> Data? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue { throw ConfigurationFileError.isDirectory }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigurationFileError(error)
        }
    }

    /// `" (did you mean X?)"` when a known name is close to the typed one, else nothing.
    static func didYouMean(_ typed: String, among names: [String]) -> String {
        ClosestName.suggestion(for: typed, among: names).map { " (did you mean \($0)?)" } ?? ""
    }

    private static func set(_ key: ConfigurationKey, _ input: ConfigurationInput, source: String,
                            on config: inout AlmanacConfiguration, problems: inout [String]) {
        guard !key.apply(&config, input) else { return }
        let got = key.isSecret ? "a value not shown (secret)" : input.quoted
        problems.append("\(key.path): expected \(key.expected), got \(got) (from \(source))")
    }

    private static func apply(fileData: Data, path: String, keys: [ConfigurationKey],
                              to config: inout AlmanacConfiguration, problems: inout [String]) {
        // The strict reader first: it also refuses a key written twice, which Foundation's
        // reader would settle silently (one of the two values lost).
        if let location = JSONSyntaxLocation(of: [UInt8](fileData)) {
            problems.append("config: \(path) is not valid JSON: \(location)")
            return
        }
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: fileData, options: [])
        } catch {
            let location = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
            problems.append("config: \(path) is not valid JSON: \(location)")
            return
        }
        guard let object = root as? [String: Any] else {
            problems.append("config: \(path) must hold a JSON object, got \(ConfigurationInput.describeJSON(root))")
            return
        }
        let byPath = Dictionary(keys.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        walk(object, prefix: "", byPath: byPath, sections: ConfigurationKey.sections(of: keys), source: path,
             config: &config, problems: &problems)
    }

    private static func walk(_ object: [String: Any], prefix: String, byPath: [String: ConfigurationKey],
                             sections: Set<String>, source: String,
                             config: inout AlmanacConfiguration, problems: inout [String]) {
        for name in object.keys.sorted() {
            guard let value = object[name] else { continue }
            let full = prefix.isEmpty ? name : prefix + "." + name
            if let key = byPath[full] {
                set(key, .json(value), source: source, on: &config, problems: &problems)
            } else if sections.contains(full) {
                guard let child = value as? [String: Any] else {
                    problems.append("\(full): expected an object, got \(ConfigurationInput.describeJSON(value)) (from \(source))")
                    continue
                }
                walk(child, prefix: full, byPath: byPath, sections: sections, source: source,
                     config: &config, problems: &problems)
            } else {
                let siblings = (Array(byPath.keys) + Array(sections)).filter { $0.hasPrefix(prefix) }.sorted()
                problems.append("\(full): unknown key (from \(source))" + didYouMean(full, among: siblings))
            }
        }
    }
}
