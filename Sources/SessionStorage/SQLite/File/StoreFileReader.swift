import Foundation
internal import GRDBSQLite

/// Reads and syncs a database file through SQLite's own file handle, never
/// through a descriptor of our own.
///
/// POSIX advisory locks belong to a process and a file: closing *any*
/// descriptor on a database file drops every lock the process holds on it,
/// those of SQLite's connections included ("How To Corrupt An SQLite Database
/// File", section 2.2). Another process then believes it is the file's last
/// connection, checkpoints, and deletes the `-wal` and `-shm` under the live
/// connections, whose later commits vanish. So nothing in this package opens a
/// store's files itself: it opens a raw, read-only SQLite connection and reads
/// through the `sqlite3_file` that connection holds (`SQLITE_FCNTL_FILE_POINTER`).
/// SQLite's unix VFS keeps one record per inode and process, and defers the
/// close of a descriptor while any connection of the process holds a lock on
/// the file, so opening and closing this reader drops nothing.
///
/// The connection never starts a transaction unless asked (``withReadTransaction(_:)``):
/// it takes no lock, reads no schema, and works on files that are not databases at all.
///
/// Never point it at a `-shm`: SQLite keeps that file's descriptor apart from
/// its record of the database's inode, so this reader's close would drop the
/// process's locks on it. (A `-wal` carries no lock of SQLite's.)
package final class StoreFileReader {
    private let connection: OpaquePointer
    private let file: UnsafeMutablePointer<sqlite3_file>
    /// The path as given, for errors.
    let path: String

    /// Opens `path` read-only through SQLite.
    ///
    /// - Throws: ``StorageError/readOnly(path:reason:)`` when SQLite cannot open the file.
    package init(path: String) throws {
        self.path = path
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &connection, flags, nil) == SQLITE_OK, let connection else {
            sqlite3_close_v2(connection)
            throw StorageError.readOnly(path: path, reason: "the file cannot be read")
        }
        var pointer: UnsafeMutableRawPointer?
        guard sqlite3_file_control(connection, "main", SQLITE_FCNTL_FILE_POINTER, &pointer) == SQLITE_OK,
              let file = pointer?.assumingMemoryBound(to: sqlite3_file.self), file.pointee.pMethods != nil
        else {
            sqlite3_close_v2(connection)
            throw StorageError.readOnly(path: path, reason: "the file cannot be read")
        }
        self.connection = connection
        self.file = file
    }

    deinit {
        sqlite3_close_v2(connection)
    }

    /// The file's size in bytes.
    func size() throws -> Int {
        try Self.size(of: file, path: path)
    }

    /// Up to `count` bytes from `offset`; fewer at the end of the file.
    func read(count: Int, at offset: Int = 0) throws -> [UInt8] {
        try Self.read(file, count: count, at: offset, path: path)
    }

    /// The whole file.
    package func readAll() throws -> [UInt8] {
        try read(count: try size())
    }

    /// Copies the whole file into a new file at `destination` (mode 0600), a
    /// piece at a time: memory stays bounded whatever the file's size.
    ///
    /// - Throws: ``StorageError/readOnly(path:reason:)`` when the file cannot be
    ///   read, or the error of writing `destination`.
    func copy(toNewFile destination: String) throws {
        try Self.copy(file, path: path, toNewFile: destination)
    }

    /// Flushes the file to stable storage (`fsync`, or `F_FULLFSYNC` where SQLite uses it).
    ///
    /// - Throws: ``StorageError/readOnly(path:reason:)`` when the sync fails.
    func synchronize() throws {
        guard let sync = file.pointee.pMethods.pointee.xSync, sync(file, SQLITE_SYNC_NORMAL) == SQLITE_OK else {
            throw StorageError.readOnly(path: path, reason: "the file cannot be synced to disk")
        }
    }

    /// Runs `body` inside a read transaction, with a function that copies the WAL
    /// as SQLite has it open into a new file (`nil` when the file is not in WAL mode
    /// or has no WAL); `nil` when no read transaction can start (a file too damaged
    /// to read, a hot rollback journal).
    ///
    /// While the transaction holds its read mark, no connection restarts or
    /// truncates the WAL: the file's bytes read inside `body` and the WAL's make
    /// a consistent pair.
    func withReadTransaction<T>(_ body: (_ copyWAL: ((_ destination: String) throws -> Void)?) throws -> T) throws -> T? {
        // A connection of another process may be recovering the WAL: wait for it, as the store does.
        sqlite3_busy_timeout(connection, 5_000)
        guard sqlite3_exec(connection, "BEGIN; SELECT count(*) FROM sqlite_master", nil, nil, nil) == SQLITE_OK else {
            _ = sqlite3_exec(connection, "ROLLBACK", nil, nil, nil)
            return nil
        }
        defer { _ = sqlite3_exec(connection, "ROLLBACK", nil, nil, nil) }
        var pointer: UnsafeMutableRawPointer?
        var copyWAL: ((String) throws -> Void)?
        if sqlite3_file_control(connection, "main", SQLITE_FCNTL_JOURNAL_POINTER, &pointer) == SQLITE_OK,
           let journal = pointer?.assumingMemoryBound(to: sqlite3_file.self), journal.pointee.pMethods != nil,
           let mode = Self.text(connection, "PRAGMA journal_mode"), mode == "wal"
        {
            let walPath = path + "-wal"
            copyWAL = { destination in try Self.copy(journal, path: walPath, toNewFile: destination) }
        }
        return try body(copyWAL)
    }

    /// Copies `file` into a new file at `destination` (mode 0600) in pieces of 4 MiB.
    private static func copy(_ file: UnsafeMutablePointer<sqlite3_file>, path: String, toNewFile destination: String) throws {
        let descriptor = open(destination, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StorageError.writing(destination, errno: errno) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        defer { try? handle.close() }
        let size = try size(of: file, path: path)
        var offset = 0
        while offset < size {
            let piece = try read(file, count: min(size - offset, 1 << 22), at: offset, path: path)
            if piece.isEmpty { break }
            do {
                try handle.write(contentsOf: piece)
            } catch {
                throw StorageError.writing(destination, failedWith: error)
            }
            offset += piece.count
        }
    }

    private static func text(_ connection: OpaquePointer, _ sql: String) -> String? {
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK,
              sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0)
        else { return nil }
        return String(cString: text)
    }

    private static func size(of file: UnsafeMutablePointer<sqlite3_file>, path: String) throws -> Int {
        var size: sqlite3_int64 = 0
        guard let fileSize = file.pointee.pMethods.pointee.xFileSize, fileSize(file, &size) == SQLITE_OK else {
            throw StorageError.readOnly(path: path, reason: "the file's size cannot be read")
        }
        return Int(size)
    }

    private static func read(
        _ file: UnsafeMutablePointer<sqlite3_file>, count: Int, at offset: Int, path: String
    ) throws -> [UInt8] {
        guard count > 0 else { return [] }
        guard let read = file.pointee.pMethods.pointee.xRead else {
            throw StorageError.readOnly(path: path, reason: "the file cannot be read")
        }
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        // xRead takes an int: read in pieces of at most 64 MiB.
        while done < count {
            let piece = min(count - done, 1 << 26)
            let code = bytes.withUnsafeMutableBytes { buffer in
                read(file, buffer.baseAddress! + done, Int32(piece), sqlite3_int64(offset + done))
            }
            if code == SQLITE_IOERR | (2 << 8) {  // SQLITE_IOERR_SHORT_READ, a macro Swift does not import
                // SQLite zero-fills the rest: the file ended inside the piece.
                let available = try size(of: file, path: path) - offset
                return Array(bytes.prefix(max(0, min(count, available))))
            }
            guard code == SQLITE_OK else {
                throw StorageError.readOnly(path: path, reason: "the file cannot be read (SQLite error \(code))")
            }
            done += piece
        }
        return bytes
    }
}
