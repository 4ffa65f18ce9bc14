// swift-tools-version:6.1
import PackageDescription

/// `sessionstore-sync-server`: the HTTP sync server described by
/// `../docs/sync-protocol.md`, storing sealed records in PostgreSQL.
///
/// - `SyncServer`: the library with every piece of logic (HTTP, database, auth).
/// - `sessionstore-sync-server`: the thin command-line entry point.
/// - `SyncServerTests`: end-to-end tests against a real PostgreSQL and the real
///   executable.
let package = Package(
    name: "SessionStoreSyncServer",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "sessionstore-sync-server", targets: ["sessionstore-sync-server"]),
        .executable(name: "sessionstore-sync-bench", targets: ["sessionstore-sync-bench"]),
        .executable(name: "sessionstore-sync-load", targets: ["sessionstore-sync-load"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // The library, for the end-to-end tests: two stores syncing through this server.
        .package(name: "SessionStore", path: ".."),
        // The sync bench writes its realistic stores with plain SQL.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // The load tool's HTTP client.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        .target(
            name: "SyncServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "sessionstore-sync-server",
            dependencies: ["SyncServer"]
        ),
        // A throwaway PostgreSQL and server processes, for the tests and the sync bench.
        .target(
            name: "SyncServerHarness",
            dependencies: [
                "SyncServer",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "sessionstore-sync-bench",
            dependencies: [
                "SyncServerHarness",
                .product(name: "SessionStore", package: "SessionStore"),
                .product(name: "SessionSync", package: "SessionStore"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/SyncBench"
        ),
        // Load and faults: 10,000 hint streams, upload throughput, kill -9 and PostgreSQL
        // restarts under load with a ledger of acknowledged writes, hostile clients.
        .executableTarget(
            name: "sessionstore-sync-load",
            dependencies: [
                "SyncServerHarness",
                "sessionstore-sync-server",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/SyncLoad"
        ),
        .testTarget(
            name: "SyncServerTests",
            dependencies: [
                "SyncServer",
                "SyncServerHarness",
                "sessionstore-sync-server",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SessionStore", package: "SessionStore"),
                .product(name: "SessionSync", package: "SessionStore"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
