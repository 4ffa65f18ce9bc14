import Foundation
internal import GRDB
internal import GRDBSQLite

/// A read-only connection to a store, opened the way its files and folder allow,
/// on a read-only medium too (a backup disk, a file system snapshot).
///
/// A store in WAL mode is read through its `-shm`, which SQLite makes when it is
/// missing; on a read-only medium it cannot, and a plain open fails. So, where
/// the store's folder cannot be written (SQLite 3.40 on a read-only bind mount):
/// - no `-wal`, or an empty one: the file holds every commit, and is opened
///   `immutable=1` (no locks, no `-shm`);
/// - a non-empty `-wal` and a `-shm`: a plain read-only open works, and sees the
///   WAL's commits (`immutable` would silently drop them);
/// - a non-empty `-wal` without `-shm`: the file and its `-wal` are copied into a
///   private folder, and the copy is opened; the folder goes at ``close()``.
/// Anywhere else the store is opened as it lies, as always.
///
/// `immutable` is asked for by URI. GRDB 7.10 opens with `sqlite3_open_v2` without
/// `SQLITE_OPEN_URI`, so a URI works only where SQLite was built with URIs on
/// (`SQLITE_USE_URI`, as Debian's is). Apple's SQLite accepts URIs when
/// `SQLITE_OPEN_URI` is passed, which GRDB does not do, and is not known to be built
/// with them on: where `USE_URI` is missing, the private copy is used instead.
struct ReadOnlyConnection: Sendable {
    /// How the store was opened.
    enum Route: Equatable, Sendable {
        /// As it lies.
        case plain
        /// With `immutable=1`: a folder that cannot be written, and no commit in a `-wal`.
        case immutable
        /// From a private copy of the file and its `-wal`.
        case privateCopy
    }

    let queue: DatabaseQueue
    let route: Route
    /// The store's `-wal` and `-shm` before the open.
    private let sidecars: WALSidecars
    /// The private copy's folder and the claim on it.
    private let copy: TemporaryClaim?

    /// Opens the store at `path` read-only, never creating it.
    ///
    /// - Throws: ``StorageError/fileNotFound(path:)`` and what an open throws.
    init(atPath path: String, configuration: SessionDatabase.Configuration) throws {
        if try DatabaseFile.state(atPath: path) == .missing { throw StorageError.fileNotFound(path: path) }
        sidecars = WALSidecars(ofStoreAt: path)
        let target = DatabaseFile.followingSymbolicLinks(path)
        var route = Self.route(forStoreAt: target)
        if route == .immutable, sqlite3_compileoption_used("USE_URI") == 0 { route = .privateCopy }
        self.route = route
        var opened = path
        switch route {
        case .plain:
            copy = nil
        case .immutable:
            copy = nil
            opened = Self.immutableURI(target)
        case .privateCopy:
            let claim = try Self.privateCopy(ofStoreAt: target)
            copy = claim
            opened = claim.path + "/store.sqlite"
        }
        do {
            queue = try DatabaseQueue(path: opened, configuration: configuration.grdb(readonly: true))
        } catch {
            copy?.removeAndRelease()
            throw StorageError(error, path: path, operation: "opening the database")
        }
    }

    /// Closes the connection, removes the `-wal` and `-shm` that reading made, and the private copy.
    func close() {
        try? queue.close()
        sidecars.removeIfMadeByReading()
        copy?.removeAndRelease()
    }

    /// How the store at `path` (its symbolic links followed) can be opened read-only.
    static func route(forStoreAt path: String) -> Route {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        // SQLite can make the `-shm` it needs: open as always.
        guard access(directory, W_OK) != 0 else { return .plain }
        // With a `-shm`, another process may have the store open: never immutable (no
        // locks, the WAL ignored), whose reads a checkpoint could tear.
        if FileManager.default.fileExists(atPath: path + "-shm") { return .plain }
        return DatabaseFile.walSize(ofStoreAt: path) == 0 ? .immutable : .privateCopy
    }

    /// `file://PATH?immutable=1`, the path made absolute and every byte but
    /// `A-Z a-z 0-9 - . _ ~ /` percent-escaped (`?`, `#` and `%` among them).
    static func immutableURI(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let kept = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/".utf8)
        let escaped = absolute.utf8.map { byte in
            kept.contains(byte) ? String(UnicodeScalar(byte)) : String(format: "%%%02X", byte)
        }.joined()
        return "file://" + escaped + "?immutable=1"
    }

    /// Copies the store and its `-wal` into a new private folder (mode 0700), claimed
    /// while it exists (``TemporaryClaim/privateFolder(prefix:)``), and returns the
    /// claim. Reads both through SQLite's handle (``StoreFileReader``).
    private static func privateCopy(ofStoreAt path: String) throws -> TemporaryClaim {
        do {
            let claim = try TemporaryClaim.privateFolder(prefix: "sessionstore-readonly-")
            do {
                try StoreFileReader(path: path).copy(toNewFile: claim.path + "/store.sqlite")
                try StoreFileReader(path: path + "-wal").copy(toNewFile: claim.path + "/store.sqlite-wal")
            } catch {
                claim.removeAndRelease()
                throw error
            }
            return claim
        } catch {
            throw StorageError.readOnly(
                path: path, reason: "its -wal has commits but no -shm beside it, and no private copy could be made (\(error))")
        }
    }
}
