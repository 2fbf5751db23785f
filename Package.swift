// swift-tools-version:6.0
// almanac: no Swift package dependencies, only the toolchain and libcurl (system library).
import PackageDescription

let package = Package(
    name: "almanac",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "almanac", targets: ["almanac"]),
    ],
    targets: [
        // libcurl through pkg-config, with typed shims for its variadic setters.
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // epoll(7) headers for the server's poller (Linux only; no library to link).
        .systemLibrary(name: "CEpoll"),
        .target(name: "HTTPServer", dependencies: [.target(name: "CEpoll", condition: .when(platforms: [.linux]))]),
        .target(name: "HTTPClient", dependencies: ["CCurl"]),
        .target(name: "HTTPClientTestSupport", dependencies: ["HTTPClient", "HTTPServer"]),
        // Helpers every test target shares (async gate, seeded RNG, raw-socket HTTP/1.1 client with
        // deadlines); never linked into the product.
        .target(name: "TestSupport", dependencies: ["Cache"]),
        .target(name: "Cache"),
        // Redis client: pure RESP2/RESP3 parser and encoder, connection on HTTPServer's poller;
        // implements the cache's SharedCacheBackend.
        .target(name: "Redis", dependencies: ["HTTPServer", "Cache"]),
        .target(name: "Rates", dependencies: ["HTTPClient", "Cache"]),
        .target(name: "Books", dependencies: ["HTTPClient", "Cache"]),
        .target(name: "Almanac", dependencies: ["HTTPServer", "HTTPClient", "Cache", "Rates", "Books"]),
        .executableTarget(name: "almanac", dependencies: ["Almanac"]),

        // Benchmark drivers (`make bench`), never run by tests.
        .executableTarget(name: "bench-server", dependencies: ["HTTPServer"]),
        .executableTarget(name: "bench-cache", dependencies: ["Cache"]),
        .executableTarget(name: "bench-client", dependencies: ["HTTPClient"]),
        .executableTarget(name: "bench-redis", dependencies: ["Redis", "TestSupport"]),

        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "HTTPClientTestSupport", "HTTPServer"]),
        .testTarget(name: "CacheTests", dependencies: ["Cache", "TestSupport"]),
        .testTarget(name: "RedisTests", dependencies: ["Redis", "Cache", "TestSupport"]),
        .testTarget(name: "RatesTests", dependencies: ["Rates", "HTTPClientTestSupport", "TestSupport"]),
        .testTarget(name: "BooksTests", dependencies: ["Books", "HTTPClientTestSupport", "TestSupport"]),
        .testTarget(name: "AlmanacTests", dependencies: ["Almanac", "HTTPClientTestSupport", "HTTPServer", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
