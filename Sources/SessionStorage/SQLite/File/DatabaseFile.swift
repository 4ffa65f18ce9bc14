import Foundation
internal import GRDB

/// Checks on a database path made before SQLite touches it.
///
/// SQLite happily creates a missing file, and switching a database to WAL
/// rewrites its header: a path is checked here first so that refusing it
/// changes nothing.
enum DatabaseFile {
    /// What a path holds.
    enum State: Equatable {
        case missing
        /// A zero-byte file: SQLite reads it as an empty database.
        case empty
        case sqlite
    }

    private static let header = Array("SQLite format 3\u{0}".utf8)

    /// Says what the path holds.
    ///
    /// - Throws: ``StorageError/notARegularFile(path:)`` for a directory or
    ///   device, ``StorageError/notASessionStore(path:reason:)`` for a file that
    ///   does not start with SQLite's header.
    /// The longest full path a store may have: SQLite's unix VFS opens paths of
    /// up to 512 bytes, and the store makes its file beside the path
    /// (`.creating-PID-XXXXXXXX`, 26 bytes) with SQLite's suffixes (`-journal`, 8).
    static let maximumPathLength = 512 - 26 - 8

    /// Refuses a path whose full form is longer than ``maximumPathLength``.
    ///
    /// - Throws: ``StorageError/pathTooLong(path:length:limit:)``.
    static func checkLength(ofPath path: String) throws {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let length = full.utf8.count
        if length > maximumPathLength {
            throw StorageError.pathTooLong(path: path, length: length, limit: maximumPathLength)
        }
    }

    /// Where `path` leads once its symbolic links are followed (at most 16), even
    /// when the last one points to no file yet; `path` itself when it is no link.
    static func followingSymbolicLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<16 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK,
                  let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current)
            else { return current }
            current = destination.hasPrefix("/")
                ? destination
                : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(destination).path
        }
        return current
    }

    static func state(atPath path: String) throws -> State {
        try inspect(atPath: path).state
    }

    /// What the path holds, and the first 100 bytes of a SQLite file (its header).
    private static func inspect(atPath path: String) throws -> (state: State, header: [UInt8]) {
        try checkLength(ofPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return (.missing, []) }
        // stat(2) follows symbolic links: a link to a store is the store.
        var info = stat()
        let statted = stat(path, &info) == 0
        if isDirectory.boolValue || (statted && (info.st_mode & S_IFMT) != S_IFREG) {
            throw StorageError.notARegularFile(path: path)
        }
        if statted && info.st_size == 0 { return (.empty, []) }
        // Through SQLite's own handle: a descriptor of ours, once closed, would drop
        // the locks of this process's connections to a live store (StoreFileReader).
        let prefix = try StoreFileReader(path: path).read(count: 100)
        if prefix.isEmpty { return (.empty, []) }
        guard prefix.starts(with: header) else {
            throw StorageError.notASessionStore(path: path, reason: "it is not a SQLite database")
        }
        return (.sqlite, prefix)
    }

    /// Whether the file at `path` is, by its header alone, a session store in WAL
    /// mode with a non-empty WAL beside it: one that a read-write connection opens
    /// without writing anything (GRDB writes to an empty WAL when it opens a pool).
    /// Anything else goes through the read-only checks first.
    static func isOpenableWithoutWriting(atPath path: String) -> Bool {
        guard let (state, header) = try? inspect(atPath: path), state == .sqlite, header.count == 100 else { return false }
        let applicationID = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return isWAL(header) && applicationID == UInt32(SchemaMigrator.applicationID) && walSize(ofStoreAt: path) > 0
    }

    /// Whether the file at `path` is, by its header, a database in WAL mode (what
    /// `PRAGMA journal_mode` says, but on an `immutable` connection, which answers `delete`).
    static func isInWALMode(atPath path: String) -> Bool {
        guard let (state, header) = try? inspect(atPath: path), state == .sqlite else { return false }
        return isWAL(header)
    }

    /// Bytes 18 and 19 of the header: the file format versions, 2 for WAL.
    private static func isWAL(_ header: [UInt8]) -> Bool {
        header.count == 100 && header[18] == 2 && header[19] == 2
    }

    /// Removes a database file this process made and its `-wal` and `-shm` (a
    /// store it was building, never one in use).
    static func removeWithCompanions(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
    }

    /// The size of the store's `-wal` file (its symbolic links followed, as SQLite does); 0 when there is none.
    static func walSize(ofStoreAt path: String) -> Int {
        let target = followingSymbolicLinks(path)
        return (try? FileManager.default.attributesOfItem(atPath: target + "-wal")[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Creates an empty file readable and writable by its owner only (mode 0600).
    ///
    /// SQLite gives its `-wal` and `-shm` files the same mode as the database.
    static func createPrivate(atPath path: String) throws {
        let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            if code == EEXIST { return }
            if code == ENOENT { throw StorageError.directoryNotFound(path: path) }
            throw StorageError.readOnly(path: path, reason: String(cString: strerror(code)))
        }
        close(descriptor)
    }
}

extension DatabaseFile {
    /// Flushes the file's content to stable storage (`fsync`), through SQLite's
    /// own handle (``StoreFileReader``): the path may name a database that a
    /// connection of this process has open.
    ///
    /// - Throws: ``StorageError/readOnly(path:reason:)`` when the file cannot be opened or synced.
    static func synchronize(atPath path: String) throws {
        try StoreFileReader(path: path).synchronize()
    }

    /// Flushes the directory that holds `path`, so a new name in it survives a power loss (best effort).
    static func synchronizeDirectory(of path: String) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let descriptor = open(directory, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}

extension DatabaseFile {
    /// Writes a compact, consistent copy of the store at `source` to a new file at
    /// `destination`, mode 0600 (`VACUUM INTO` on a read-only connection: one read
    /// transaction, so writers go on meanwhile). A failed copy leaves no file.
    static func writeCopy(
        ofStoreAt source: String, to destination: String, configuration: SessionDatabase.Configuration
    ) throws {
        try createPrivate(atPath: destination)
        do {
            let connection = try ReadOnlyConnection(atPath: source, configuration: configuration)
            defer { connection.close() }
            try connection.queue.inDatabase { db in try db.execute(sql: "VACUUM INTO ?", arguments: [destination]) }
            // SQLite may have made the file anew: the copy holds history, so 0600 whatever happened.
            chmod(destination, 0o600)
        } catch {
            unlink(destination)
            throw error
        }
    }

    /// Whether the process whose id is `pidText` (the part of a leftover file's name
    /// that names its maker) no longer runs: only then may its leftover be removed.
    /// Another answer (alive, not ours to ask, not a number, this process) keeps the file.
    static func makerIsGone(_ pidText: Substring) -> Bool {
        guard let pid = Int32(pidText), pid != getpid() else { return false }
        return kill(pid, 0) != 0 && errno == ESRCH
    }
}

/// Which file a path names: its device and inode.
package struct FileIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64

    /// The identity of the file at `path` (after symbolic links), or `nil` if there is none.
    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

extension SessionStoreFile {
    /// Writes `data` to `path` atomically, readable and writable by its owner
    /// only (mode 0600, whatever the umask): exports hold browsing history.
    ///
    /// - Throws: ``StorageError/readOnly(path:reason:)`` when it cannot be written.
    public static func writePrivately(_ data: Data, toPath path: String) throws {
        try writePrivately(toPath: path) { write in try write(data) }
    }

    /// Writes what `body` hands to its `write` function to `path`, as it comes,
    /// into a temporary file beside it (mode 0600) that replaces `path` only
    /// once `body` returns and the bytes are on disk: a failed or interrupted
    /// export never leaves a partial file under the name.
    ///
    /// - Throws: ``StorageError/readOnly(path:reason:)`` when it cannot be
    ///   written, or what `body` throws.
    public static func writePrivately(
        toPath path: String, _ body: (_ write: @escaping (Data) throws -> Void) throws -> Void
    ) throws {
        let temporary = "\(path).\(UUID().uuidString.prefix(8)).tmp"
        let descriptor = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw StorageError.writing(path, errno: errno)
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try body { data in
                do {
                    try handle.write(contentsOf: data)
                } catch {
                    throw StorageError.writing(path, failedWith: error)
                }
            }
        } catch {
            unlink(temporary)
            throw error
        }
        do {
            try handle.synchronize()
            try handle.close()
            guard rename(temporary, path) == 0 else { throw StorageError.writing(path, errno: errno) }
            DatabaseFile.synchronizeDirectory(of: path)
        } catch {
            unlink(temporary)
            throw StorageError.writing(path, failedWith: error)
        }
    }
}

/// A stored value that breaks the schema's or the rules' promises, found while
/// reading rows; it becomes ``StorageError/corrupt(path:reason:)`` with the
/// store's path where the error leaves the store.
struct StoredValueDamage: Error {
    var reason: String
}

extension StorageError {
    /// Translates a GRDB error into the storage error a caller can act on.
    init(_ error: any Error, path: String, operation: String) {
        if let error = error as? StorageError {
            self = error
            return
        }
        if let damage = error as? StoredValueDamage {
            self = .corrupt(path: path, reason: damage.reason)
            return
        }
        if error is RowDecodingError {
            // A value of the wrong type or shape where the schema allows only one: damage.
            self = .corrupt(path: path, reason: "a stored value cannot be read")
            return
        }
        guard let error = error as? DatabaseError else {
            self = .sqlite(path: path, operation: operation, reason: "\(error)")
            return
        }
        let reason = error.message ?? "SQLite error \(error.resultCode.rawValue)"
        if error.resultCode == .SQLITE_MISUSE && error.message == "Connection is closed" {
            // GRDB's answer to a call on a pool that ``SessionDatabase/close()`` closed.
            self = .closed(path: path)
            return
        }
        switch error.resultCode.primaryResultCode {
        case .SQLITE_NOTADB:
            self = .notASessionStore(path: path, reason: "it is not a SQLite database")
        case .SQLITE_CORRUPT:
            self = .corrupt(path: path, reason: reason)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self = .busy(path: path)
        case .SQLITE_FULL:
            self = .diskFull(path: path)
        case .SQLITE_READONLY where FileManager.default.fileExists(atPath: path + "-journal"):
            // SQLite takes a rollback journal beside the file for a crashed transaction
            // of its own, and must play it back before anyone may read.
            self = .readOnly(
                path: path,
                reason: "\(reason): a rollback journal \(shown(path))-journal lies beside the store, and SQLite must "
                    + "play it back first; if no program wrote it for this file, move it away")
        case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN:
            self = .readOnly(path: path, reason: reason)
        case .SQLITE_CONSTRAINT:
            // Every write is checked against the model's rules first: a constraint fails
            // only on rows that already broke one (a store edited by hand).
            self = .corrupt(
                path: path, reason: "a write met rows that break the schema's rules (\(reason)); `sessionstore check` says where")
        case .SQLITE_ERROR where reason.hasPrefix("no such table") || reason.hasPrefix("no such column"):
            // A table or column the migrations made is gone: the schema was changed by hand.
            self = .corrupt(path: path, reason: "its schema is damaged (\(reason)); `sessionstore check` lists what differs")
        default:
            self = .sqlite(path: path, operation: operation, reason: reason)
        }
    }
}
