/// A parsed command line (docs/operations.md "Command line").
enum CLICommand: Equatable {
    case serve(ConfigurationFlags)
    case checkConfig(ConfigurationFlags)
    /// `check-config --providers`: the provider registry, one JSON object a line.
    case listProviders
    case healthcheck(url: String?, flags: ConfigurationFlags)
    case help
    case version

    /// Why a command line was refused; printed with the usage, exit 2.
    struct UsageError: Error, Equatable {
        var message: String
    }

    /// Parses the arguments after the program name. `serve` is the default subcommand;
    /// `--help`/`-h` and `--version` win wherever they appear. Flags take their value as the
    /// next argument or after `=` (`--port 8080`, `--port=8080`).
    static func parse(_ arguments: [String]) -> Result<CLICommand, UsageError> {
        if arguments.contains(where: { $0 == "--help" || $0 == "-h" }) { return .success(.help) }
        if arguments.contains("--version") { return .success(.version) }

        var rest = arguments[...]
        var subcommand = "serve"
        if let first = rest.first, !first.hasPrefix("-") {
            subcommand = first
            rest = rest.dropFirst()
        }
        if subcommand == "check-config", rest.contains("--providers") {
            return rest.count == 1 ? .success(.listProviders)
                : .failure(UsageError(message: "--providers takes no other arguments"))
        }
        let allowed: Set<String>
        switch subcommand {
        case "serve", "check-config": allowed = ["--config", "--host", "--port"]
        case "healthcheck": allowed = ["--config", "--url"]
        case "help": return rest.isEmpty ? .success(.help) : .failure(UsageError(message: "help takes no arguments"))
        case "version": return rest.isEmpty ? .success(.version) : .failure(UsageError(message: "version takes no arguments"))
        default: return .failure(UsageError(message: "unknown command '\(subcommand)'"))
        }

        var values: [String: String] = [:]
        while let arg = rest.first {
            rest = rest.dropFirst()
            let (name, inline) = split(arg)
            guard name.hasPrefix("--") else {
                return .failure(UsageError(message: "unexpected argument '\(arg)' for \(subcommand)"))
            }
            guard allowed.contains(name) else {
                return .failure(UsageError(message: "unknown option '\(name)' for \(subcommand)"))
            }
            guard values[name] == nil else { return .failure(UsageError(message: "\(name) given twice")) }
            if let inline {
                values[name] = inline
            } else if let next = rest.first, !next.hasPrefix("--") {
                values[name] = next
                rest = rest.dropFirst()
            } else {
                return .failure(UsageError(message: "\(name) needs a value"))
            }
        }
        let flags = ConfigurationFlags(configPath: values["--config"], host: values["--host"], port: values["--port"])
        switch subcommand {
        case "check-config": return .success(.checkConfig(flags))
        case "healthcheck": return .success(.healthcheck(url: values["--url"], flags: flags))
        default: return .success(.serve(flags))
        }
    }

    private static func split(_ arg: String) -> (String, String?) {
        guard arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") else { return (arg, nil) }
        return (String(arg[..<eq]), String(arg[arg.index(after: eq)...]))
    }

    static let usage = """
    almanac \(AlmanacVersion.string): cached exchange rates and book lookups over HTTP.

    Usage:
      almanac [serve] [--config PATH] [--host H] [--port N]
                              run the server (the default command); stops on SIGTERM/SIGINT
      almanac check-config [--config PATH] [--host H] [--port N]
                              validate and print the effective configuration, secrets as ***
      almanac check-config --providers
                              print every upstream provider, one JSON object a line: name,
                              domain, key section, base URL keys and their variables, budget
                              key and variable, default base URL
      almanac healthcheck [--url URL] [--config PATH]
                              exit 0 when GET /healthz answers 200 within 2 s, else 1
                              (default URL: http://127.0.0.1:<server.port>/healthz)
      almanac --help | -h     this text
      almanac --version       the version

    Configuration, lowest to highest precedence: built-in defaults, the JSON file
    (--config, else $ALMANAC_CONFIG, else config/almanac.json if present), ALMANAC_*
    environment variables (PORT when ALMANAC_SERVER_PORT is unset), then --host/--port.
    Every key is listed in docs/operations.md.

    Exit status: 0 success, 1 failure (server could not start, health check failed),
    2 usage or configuration error.
    """
}
