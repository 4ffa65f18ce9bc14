import Foundation
internal import GRDBSQLite

/// The `-wal` and `-shm` files beside a store, as they were before a read.
///
/// Reading a WAL database makes both files if they are missing, and a read-only
/// connection cannot remove them when it closes: a read-only command run on a
/// copied store would leave two new files beside it. Record the state before the
/// read, and after closing call ``removeIfMadeByReading()``.
struct WALSidecars {
    private let databasePath: String
    private let wereAbsent: Bool
    private static let suffixes = ["-wal", "-shm"]

    /// Records whether the store at `path` (its symbolic links followed, as SQLite does) has neither file.
    init(ofStoreAt path: String) {
        let databasePath = DatabaseFile.followingSymbolicLinks(path)
        self.databasePath = databasePath
        wereAbsent = !Self.suffixes.contains { FileManager.default.fileExists(atPath: databasePath + $0) }
    }

    /// When neither file was there before the read and one is now, lets SQLite
    /// remove them: a read-write connection (never creating the file) reads the
    /// schema and closes. SQLite removes the files only when that connection is
    /// the file's last one, after checkpointing the WAL; while another process
    /// has the store open, they stay, as they must. Nothing is written unless
    /// another process left commits in the WAL, which any last connection folds in.
    func removeIfMadeByReading() {
        guard wereAbsent, Self.suffixes.contains(where: { FileManager.default.fileExists(atPath: databasePath + $0) })
        else { return }
        if access(databasePath, W_OK) == 0 {
            var connection: OpaquePointer?
            defer { sqlite3_close_v2(connection) }
            guard sqlite3_open_v2(databasePath, &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { return }
            _ = sqlite3_exec(connection, "SELECT count(*) FROM sqlite_master", nil, nil, nil)
        } else if DatabaseFile.walSize(ofStoreAt: databasePath) == 0, !Self.isInUse(shmAt: databasePath + "-shm") {
            // A file this process may not write (mode 0400, another owner's): no connection
            // of ours can remove what the read made, and the files would keep their
            // read-only mode and block the owner's next write. An empty WAL that no other
            // process has open holds nothing.
            for suffix in Self.suffixes { unlink(databasePath + suffix) }
        }
    }

    /// Leaves a WAL of one frame (the database header page, unchanged) that
    /// outlives the last connection: after the store's own connections closed,
    /// and before a pool opens on a store whose WAL is empty or missing.
    ///
    /// GRDB makes the WAL non-empty whenever it opens a pool on an empty or missing
    /// one, with a schema change (a table created and dropped) that costs about
    /// 0.6 ms and makes every connection read the schema again. The frame left here
    /// costs one page write, and the next open writes nothing. The write is one
    /// transaction that sets `user_version` to the value it reads, and only on a
    /// session store (its application id); when another connection has the store
    /// open, the frame simply joins its WAL. Best effort: any failure leaves things
    /// as they were, for GRDB to do as it does.
    static func keepForNextOpen(ofStoreAt path: String) {
        let databasePath = DatabaseFile.followingSymbolicLinks(path)
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        guard sqlite3_open_v2(databasePath, &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { return }
        // Kept after the last connection closes; journal_size_limit -1 keeps its frame rather than truncating it.
        var persist: Int32 = 1
        _ = sqlite3_file_control(connection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        func integer(_ sql: String) -> Int32? {
            var statement: OpaquePointer?
            defer { sqlite3_finalize(statement) }
            guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK,
                  sqlite3_step(statement) == SQLITE_ROW
            else { return nil }
            return sqlite3_column_int(statement, 0)
        }
        guard sqlite3_exec(connection, "PRAGMA journal_size_limit = -1; BEGIN IMMEDIATE", nil, nil, nil) == SQLITE_OK
        else { return }
        guard integer("PRAGMA application_id") == SchemaMigrator.applicationID, let version = integer("PRAGMA user_version"),
              sqlite3_exec(connection, "PRAGMA user_version = \(version)", nil, nil, nil) == SQLITE_OK
        else {
            _ = sqlite3_exec(connection, "ROLLBACK", nil, nil, nil)
            return
        }
        _ = sqlite3_exec(connection, "COMMIT", nil, nil, nil)
    }

    /// Whether a connection of another process has the store's WAL index open: each
    /// holds a shared lock on its "dead man switch" byte (offset 128 of `-shm` in
    /// SQLite's unix VFS).
    ///
    /// The answer comes from the kernel's table of locks (`/proc/locks`), never from
    /// a descriptor opened on the `-shm`: closing one would drop this process's own
    /// locks on it, SQLite's among them (see ``StoreFileReader``). Locks are matched
    /// by inode alone, so a doubt always answers yes; so does a system without the
    /// table (Apple's), where the files are then kept.
    static func isInUse(shmAt path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return errno != ENOENT }
        #if os(Linux)
        guard let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return true }
        return PosixLockTable(table).holders(ofInode: UInt64(info.st_ino), byte: 128).contains { $0 != getpid() }
        #else
        return true
        #endif
    }
}

/// The kernel's table of file locks, as `/proc/locks` prints it on Linux:
/// `1: POSIX  ADVISORY  READ 1234 08:02:56789 128 128` (a `->` before the type
/// marks a process waiting for the lock, counted as a holder; `EOF` an end at the end of the file).
struct PosixLockTable {
    struct Lock: Equatable {
        var pid: Int32
        var inode: UInt64
        var start: UInt64
        var end: UInt64?
    }

    let locks: [Lock]

    init(_ text: String) {
        locks = text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).filter { $0 != "->" }
            guard fields.count >= 8, fields[1] == "POSIX", let pid = Int32(fields[4]),
                  let inode = fields[5].split(separator: ":").last.flatMap({ UInt64($0) }),
                  let start = UInt64(fields[6])
            else { return nil }
            return Lock(pid: pid, inode: inode, start: start, end: fields[7] == "EOF" ? nil : UInt64(fields[7]))
        }
    }

    /// The processes holding a lock on `byte` of the file with `inode`.
    func holders(ofInode inode: UInt64, byte: UInt64) -> [Int32] {
        locks.filter { $0.inode == inode && $0.start <= byte && ($0.end.map { byte <= $0 } ?? true) }.map(\.pid)
    }
}
