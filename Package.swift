// swift-tools-version:6.0
// almanac: no Swift package dependencies, only the toolchain and C libraries (libcurl, zlib, OpenSSL) as system libraries.
import PackageDescription

/// The git commit to embed (`almanac --version`, `GET /`, `almanac_build_info`): the
/// ALMANAC_COMMIT environment variable of the build, which `make` sets from `git rev-parse`
/// (a tarball without .git, or a bare `swift build`, gets "unknown"). Only characters that
/// are safe inside a C string literal are kept.
let buildCommit: String = {
    let raw = Context.environment["ALMANAC_COMMIT"] ?? ""
    let safe = raw.filter { $0.isASCII && ($0.isLetter || $0.isNumber || "-._+".contains($0)) }
    return safe.isEmpty || safe.count > 64 ? "unknown" : safe
}()

let package = Package(
    name: "almanac",
    products: [
        .executable(name: "almanac", targets: ["almanac"]),
        // The modules the fuzz package (Fuzz/) builds its targets on, as a path dependency on this
        // package: the parser (HTTP1), RESP (Redis), the decoders (Rates, Books), the shared-value
        // records and the whole app. Not a public API.
        .library(name: "AlmanacModules", targets: ["Base", "Transport", "HTTP1", "Web", "HTTPClient", "Cache", "Upstream",
                                                    "Rates", "Books", "Redis", "SharedSteward", "Almanac"]),
        .library(name: "AlmanacTestSupport", targets: ["TestSupport"]),
    ],
    targets: [
        // libcurl through pkg-config, with typed shims for its variadic setters.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // zlib for gzip content coding of stored answers (Debian: zlib1g-dev).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // OpenSSL for Redis over TLS (rediss://), linked into the Redis client only (Debian: libssl-dev).
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // epoll(7) headers for the server's poller (Linux only; no library to link).
        .systemLibrary(name: "CEpoll"),
        // posix_spawn's close-from file action, for the programs tests start (TestSupport's
        // ChildProcess); a header only, nothing to link.
        .systemLibrary(name: "CSpawn"),
        // What every layer needs once: JSON string escaping, ASCII decimals, content digests,
        // civil time and date formats, histograms. No dependencies, Swift only.
        .target(name: "Base"),
        // The server in three layers, as swift-nio and Hummingbird split theirs:
        // Transport: sockets, the epoll poller, listeners, timers and the few POSIX calls (shared by
        // HTTP and Redis); it knows nothing of HTTP.
        // The loop-shard thread-local: one C definition every module reads (Transport's LoopShard).
        // DWARF 4: the toolchain's clang writes DWARF 5 by default, whose debug info for this
        // thread-local valgrind 3.19 (callgrind, bench/profile-hit.sh) cannot read.
        .target(name: "CLoopShard", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        .target(name: "Transport", dependencies: [.target(name: "CEpoll", condition: .when(platforms: [.linux])), "CLoopShard"]),
        // HTTP1: the HTTP/1.1 protocol (incremental parser, connection state machine, request and
        // response types, the connections that drive them over Transport). No Glibc: every system
        // call goes through Transport. The fuzz targets depend on it as a module.
        .target(name: "HTTP1", dependencies: ["Base", "Transport"]),
        // Web: what an application puts on top of HTTP/1.1: the router, CORS, content negotiation.
        .target(name: "Web", dependencies: ["Base", "HTTP1"]),
        .target(name: "HTTPClient", dependencies: ["Base", "CCurl"]),
        .target(name: "Gzip", dependencies: ["CZlib"]),
        .target(name: "HTTPClientTestSupport", dependencies: ["Base", "HTTPClient", "HTTP1", "Web", "Upstream", "Rates"]),
        // Helpers every test target shares (async gate, seeded RNG, raw-socket HTTP/1.1 client with
        // deadlines, child processes with default signal actions, the checkout's root); never
        // linked into the product.
        .target(name: "TestSupport", dependencies: ["Cache", .target(name: "CSpawn", condition: .when(platforms: [.linux]))]),
        // Transport for `LoopShard` only: a hit on an event loop reads that loop's replica.
        .target(name: "Cache", dependencies: ["Base", "Transport"]),
        // The one provider chain (fall-through, failure aggregation, what counts as success) and
        // the steward between it and the HTTP client; every domain asks its providers through it.
        .target(name: "Upstream", dependencies: ["Base", "HTTPClient", "Cache"]),
        // Redis client: pure RESP2/RESP3 parser and encoder, connection on Transport's poller;
        // implements the cache's SharedCacheBackend; TLS through OpenSSL. No HTTP module.
        .target(name: "Redis", dependencies: ["Base", "Transport", "Cache", "COpenSSL"]),
        // The steward's state shared by a cluster's replicas through Redis (Lua scripts on
        // Redis time, local fallback while Redis is away).
        .target(name: "SharedSteward", dependencies: ["Redis", "Upstream"]),
        .target(name: "Rates", dependencies: ["Base", "HTTPClient", "Upstream", "Cache"]),
        .target(name: "Books", dependencies: ["Base", "HTTPClient", "Upstream", "Cache"]),
        // The build's git commit as a C string (a C macro can carry a string; a Swift
        // compilation condition cannot), defined for this one file only. DWARF 4 like the
        // Swift objects: clang's default DWARF 5 stops valgrind (bench/profile-hit.sh).
        .target(name: "CBuildInfo", cSettings: [.define("ALMANAC_COMMIT", to: "\"\(buildCommit)\""),
                                                .unsafeFlags(["-gdwarf-4"])]),
        .target(name: "Almanac", dependencies: ["Base", "Transport", "HTTP1", "Web", "HTTPClient", "Upstream", "Cache", "Rates", "Books", "CBuildInfo", "Gzip", "Redis", "SharedSteward"],
                // The OpenAPI document, as a JSON file; its bytes are compiled in (`PackageResources`).
                resources: [.embedInCode("OpenAPI/openapi.json")]),
        .executableTarget(name: "almanac", dependencies: ["Almanac"]),

        // Benchmark drivers (`make bench`), never run by tests.
        .executableTarget(name: "bench-server", dependencies: ["HTTP1", "Web"]),
        .executableTarget(name: "bench-cache", dependencies: ["Cache"]),
        .executableTarget(name: "bench-client", dependencies: ["HTTPClient"]),
        .executableTarget(name: "bench-redis", dependencies: ["Redis", "TestSupport"]),

        .testTarget(name: "BaseTests", dependencies: ["Base", "TestSupport"]),
        .testTarget(name: "HTTP1Tests", dependencies: ["HTTP1", "Web", "Transport", "TestSupport"]),
        .testTarget(name: "WebTests", dependencies: ["Web", "HTTP1", "TestSupport"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "HTTPClientTestSupport", "HTTP1", "Web", "TestSupport"]),
        .testTarget(name: "UpstreamTests", dependencies: ["Upstream", "Cache", "HTTPClientTestSupport", "TestSupport"]),
        .testTarget(name: "CacheTests", dependencies: ["Cache", "Transport", "TestSupport"]),
        .testTarget(name: "RedisTests", dependencies: ["Redis", "Cache", "TestSupport"]),
        .testTarget(name: "SharedStewardTests", dependencies: ["SharedSteward", "Redis", "Upstream", "HTTPClient", "HTTPClientTestSupport", "TestSupport"]),
        .testTarget(name: "RatesTests", dependencies: ["Base", "Rates", "HTTPClientTestSupport", "TestSupport"]),
        .testTarget(name: "BooksTests", dependencies: ["Books", "HTTPClientTestSupport", "TestSupport"]),
        // The app's own logic: routes, configuration, CLI, documents; in process, no sockets.
        .testTarget(name: "AlmanacTests", dependencies: ["Almanac", "Base", "Cache", "HTTPClientTestSupport", "Transport", "HTTP1", "Web", "TestSupport", "Gzip", "Redis"]),
        // The whole stack over sockets: the app on a real port, the built `almanac` binary, the
        // three-replica cluster, against stub upstreams and real redis-server/redis-sentinel.
        .testTarget(name: "AlmanacEndToEndTests", dependencies: ["Almanac", "Base", "Cache", "HTTPClientTestSupport", "Transport", "HTTP1", "Web", "TestSupport", "Gzip", "Redis"]),
    ],
    swiftLanguageModes: [.v6]
)
