// swift-tools-version:6.1
import PackageDescription

/// Layers, bottom to top (each depends only on the ones below it):
/// - `SessionModel`: value types and the pure tab-list rules (Foundation only).
/// - `SessionStorage`: repository protocols and their SQLite implementation (GRDB).
/// - `SessionConsumers`: UI-facing consumer and command protocols (model values only).
/// - `SessionMediators`: observe repositories, push to consumers on the main queue.
/// - `SessionStore`: the one import for apps, re-exporting the four layers above.
/// - `SessionInterop`: reads Firefox's and Chromium's session files, writes
///   the tab list as text and as a bookmarks file (needs liblz4-dev).
/// - `SessionSync`: end-to-end encrypted sync of the tabs with the user's other
///   devices, through `sessionstore-sync-server` (the `Server/` package, which
///   an app never resolves). Apps that do not sync never link it (swift-crypto).
/// - `SessionMirror`: mirrors a real browser into the store, from the events its
///   WebExtension sends (`Extension/`) to `sessionstore host`, the native host.
/// - `SessionStoreCommand`: the `sessionstore` command-line tool.
///
/// The library product `SessionStore` builds on Apple platforms and Linux; it
/// links GRDB.swift only (no argument parser, no benchmark code, no crypto).
let package = Package(
    name: "SessionStore",
    platforms: [.iOS(.v17), .macOS(.v14), .tvOS(.v17), .visionOS(.v1)],
    products: [
        .library(name: "SessionStore", targets: ["SessionStore"]),
        .library(name: "SessionInterop", targets: ["SessionInterop"]),
        .library(name: "SessionSync", targets: ["SessionSync"]),
        .executable(name: "sessionstore", targets: ["sessionstore"]),
        .executable(name: "sessionstore-bench", targets: ["sessionstore-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // 4.x, not 3.x: jwt-kit 5, which the sync server uses, needs it.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        .target(name: "SessionModel"),
        .target(
            name: "SessionStorage",
            dependencies: [
                "SessionModel",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            plugins: ["EmbedMigrationsPlugin"]
        ),
        .target(name: "SessionConsumers", dependencies: ["SessionModel"]),
        .target(name: "SessionMediators", dependencies: ["SessionModel", "SessionStorage", "SessionConsumers"]),
        .target(name: "SessionStore", dependencies: ["SessionModel", "SessionStorage", "SessionConsumers", "SessionMediators"]),
        .systemLibrary(name: "CLZ4", pkgConfig: "liblz4", providers: [.apt(["liblz4-dev"]), .brew(["lz4"])]),
        .target(name: "SessionInterop", dependencies: ["SessionModel", "SessionStorage", "CLZ4"]),
        .target(
            name: "SessionSync",
            dependencies: [
                "SessionModel", "SessionStorage", "SessionConsumers", "SessionMediators",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(name: "SessionMirror", dependencies: ["SessionModel", "SessionStorage"]),
        .target(
            name: "SessionStoreCommand",
            dependencies: [
                "SessionModel",
                "SessionStorage",
                "SessionInterop",
                "SessionMirror",
                "SessionConsumers",
                "SessionMediators",
                "SessionSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "sessionstore", dependencies: ["SessionStoreCommand"]),
        .executableTarget(name: "EmbedMigrationsTool"),
        // Callgrind's client requests as C functions (no-ops outside valgrind), for the bench's instruction counts.
        .target(name: "CCallgrind", path: "Benchmarks/CCallgrind"),
        .executableTarget(
            name: "sessionstore-bench",
            dependencies: [
                "SessionModel", "SessionStorage", "SessionConsumers", "SessionMediators", "SessionMirror", "CCallgrind",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/SessionStoreBench"
        ),
        .plugin(
            name: "EmbedMigrationsPlugin",
            capability: .buildTool(),
            dependencies: ["EmbedMigrationsTool"]
        ),
        .target(
            name: "SessionTestSupport",
            dependencies: [
                "SessionModel", "SessionStorage", "SessionConsumers",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(name: "SessionModelTests", dependencies: ["SessionModel", "SessionTestSupport"]),
        .testTarget(
            name: "SessionStorageTests",
            // EmbedMigrationsTool: EmbedMigrationsToolTests run the built tool.
            dependencies: [
                "SessionModel", "SessionStorage", "SessionTestSupport", "sessionstore-lock-probe", "EmbedMigrationsTool",
            ]
        ),
        .testTarget(
            name: "SessionMediatorsTests",
            dependencies: [
                "SessionMediators", "SessionConsumers", "SessionStorage", "SessionModel", "SessionTestSupport",
                "sessionstore-lock-probe",
            ]
        ),
        // Sees, from another process, the locks a test process holds on its stores (LockWitness).
        .executableTarget(name: "sessionstore-lock-probe", path: "Tests/LockProbe"),
        .executableTarget(
            name: "sessionstore-crash-writer",
            dependencies: ["SessionModel", "SessionStorage", "SessionTestSupport"],
            path: "Tests/CrashWriter"
        ),
        // A fault-injecting SQLite VFS, and the power-loss harness that runs a workload through it.
        .target(name: "CrashVFS", path: "Tests/CrashVFS", linkerSettings: [.linkedLibrary("sqlite3")]),
        .executableTarget(
            name: "sessionstore-power-loss",
            dependencies: [
                "CrashVFS", "SessionModel", "SessionStorage", "SessionTestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tests/PowerLoss"
        ),
        .testTarget(
            name: "SessionReliabilityTests",
            dependencies: [
                "SessionModel", "SessionStorage", "SessionTestSupport", "sessionstore", "sessionstore-crash-writer",
                "CrashVFS", "sessionstore-power-loss",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "SessionInteropTests",
            dependencies: ["SessionInterop", "SessionStorage", "SessionModel", "SessionTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "SessionSyncTests",
            dependencies: [
                "SessionSync", "SessionStorage", "SessionModel", "SessionTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "SessionStoreCommandTests",
            dependencies: ["SessionStoreCommand", "SessionStorage", "SessionTestSupport", "sessionstore"]
        ),
        .testTarget(
            name: "SessionMirrorTests",
            dependencies: ["SessionMirror", "SessionModel", "SessionStorage", "SessionTestSupport", "sessionstore"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// `swift package generate-documentation` (swift-docc-plugin) only when asked for:
// `SESSIONSTORE_DOCS=1 swift package generate-documentation --target SessionStore`.
// Without the variable neither this package nor a client resolves the plugin.
// `.ci/docs` builds the complete archive with the toolchain's own tools (the
// plugin's symbol graph leaves out the modules `SessionStore` re-exports).
if Context.environment["SESSIONSTORE_DOCS"] == "1" {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
