import Foundation
import SessionStorage

/// A fresh directory under the system's temporary directory, removed by ``remove()``.
///
/// Every test that touches files makes its own, so tests never share state.
public struct TemporaryDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// Creates a new, empty, uniquely named directory.
    public init() throws {
        LockWitness.installIfAsked()
        let base = FileManager.default.temporaryDirectory.path
        path = "\(base)/sessionstore-tests-\(UUID().uuidString.lowercased())"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Removes the directory and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Runs `body` with a new temporary directory, removing it afterwards.
    public static func with<T>(_ body: (TemporaryDirectory) throws -> T) throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        return try body(directory)
    }

    /// Runs async `body` with a new temporary directory, removing it afterwards.
    public static func with<T>(_ body: (TemporaryDirectory) async throws -> T) async throws -> T {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        return try await body(directory)
    }
}

/// The bytes of a file, for asserting that a refused operation left it untouched.
///
/// A database file is read through SQLite's own handle: a descriptor of the
/// test's, once closed, would drop the locks of a store the test has open.
public func fileBytes(_ path: String) -> Data? {
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    if path.hasSuffix("-wal") || path.hasSuffix("-shm") { return FileManager.default.contents(atPath: path) }
    return (try? StoreFileReader(path: path).readAll()).map { Data($0) }
}

/// The regular files below `directory`, at any depth (snapshot folders included),
/// as paths relative to it: what a scan for leftover data must read.
public func filesBelow(_ directory: String) throws -> [String] {
    guard let paths = FileManager.default.subpaths(atPath: directory) else { return [] }
    return paths.filter { path in
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue
    }.sorted()
}
