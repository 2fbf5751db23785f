import Dispatch
import Foundation
import Synchronization

/// The `almanac` command line as a function, so every exit path is testable without
/// spawning a process: the executable only calls `run` and exits with its result.
public enum AlmanacCLI {
    /// Where the CLI writes: standard output and standard error in production, buffers in tests.
    public struct Output: Sendable {
        public var out: @Sendable (String) -> Void
        public var err: @Sendable (String) -> Void
        public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void) {
            self.out = out
            self.err = err
        }

        public static let standard = Output(
            out: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
            err: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
    }

    public static let exitSuccess: Int32 = 0
    public static let exitFailure: Int32 = 1
    public static let exitUsage: Int32 = 2

    /// Runs the command in `arguments` (without the program name). `serve` blocks until
    /// SIGTERM/SIGINT and the drain finish.
    public static func run(arguments: [String], environment: [String: String],
                           output: Output = .standard, plugins: AlmanacPlugins = .standard,
                           fileReader: ConfigurationLoader.FileReader = ConfigurationLoader.readFile) -> Int32 {
        let command: CLICommand
        switch CLICommand.parse(arguments) {
        case let .success(c): command = c
        case let .failure(e):
            output.err("almanac: \(e.message)\n\n\(CLICommand.usage)")
            return exitUsage
        }

        switch command {
        case .help:
            output.out(CLICommand.usage)
            return exitSuccess
        case .version:
            output.out(AlmanacVersion.versionLine)
            return exitSuccess
        case let .checkConfig(flags):
            guard let config = load(flags, environment, fileReader, plugins, output) else { return exitUsage }
            output.out(config.redactedJSON)
            return exitSuccess
        case .listProviders:
            for provider in ProviderListing.all(for: plugins.configurationDefaults) { output.out(provider.json) }
            return exitSuccess
        case let .healthcheck(url, flags):
            let target: String
            if let url {
                target = url
            } else {
                guard let config = load(flags, environment, fileReader, plugins, output) else { return exitUsage }
                target = HealthCheck.defaultURL(for: config)
            }
            if let failure = HealthCheck.probe(url: target) {
                output.err("almanac healthcheck: \(target): \(failure)")
                return exitFailure
            }
            return exitSuccess
        case let .serve(flags):
            guard let config = load(flags, environment, fileReader, plugins, output) else { return exitUsage }
            return serve(config, plugins: plugins, output: output)
        }
    }

    private static func load(_ flags: ConfigurationFlags, _ environment: [String: String],
                             _ fileReader: ConfigurationLoader.FileReader, _ plugins: AlmanacPlugins,
                             _ output: Output) -> AlmanacConfiguration? {
        switch ConfigurationLoader.load(flags: flags, environment: environment, fileReader: fileReader,
                                        defaults: plugins.configurationDefaults) {
        case let .success(config):
            return config
        case let .failure(errors):
            output.err("almanac: invalid configuration (\(errors.problems.count) problem\(errors.problems.count == 1 ? "" : "s")):")
            for problem in errors.problems { output.err("  " + problem) }
            return nil
        }
    }

    /// Bridges the async app into this synchronous entry point: the main thread waits on a
    /// semaphore (it is not part of the cooperative pool) while the app runs as a task.
    private static func serve(_ config: AlmanacConfiguration, plugins: AlmanacPlugins, output: Output) -> Int32 {
        let result = ExitCodeBox()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let app = AlmanacApp(configuration: config, plugins: plugins)
            do {
                try await app.run()
                result.set(exitSuccess)
            } catch {
                let reason = ListenFailureAdvice.describe(error, host: config.server.http.host, port: config.server.http.port)
                app.logger.error("cannot serve: \(reason)")
                output.err("almanac: cannot serve: \(reason)")
                result.set(exitFailure)
            }
            done.signal()
        }
        done.wait()
        return result.get()
    }
}

/// The exit code handed from the serving task to the waiting main thread.
private final class ExitCodeBox: Sendable {
    private let code = Mutex<Int32>(0)
    func set(_ value: Int32) { code.withLock { $0 = value } }
    func get() -> Int32 { code.withLock { $0 } }
}
