// swift-tools-version:6.1
import PackageDescription

// A client of SessionStore, built exactly as an outside package would build it:
// it depends on the repository (two directories up) by path and imports the one
// library product. `Examples/run` builds and runs it, so it cannot go stale.
let package = Package(
    name: "TabStrip",
    platforms: [.macOS(.v14), .iOS(.v17)],
    dependencies: [
        .package(name: "SessionStore", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "TabStrip",
            dependencies: [.product(name: "SessionStore", package: "SessionStore")],
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
