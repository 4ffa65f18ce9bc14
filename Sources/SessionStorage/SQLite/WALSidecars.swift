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
        } else if DatabaseFile.walSize(ofStoreAt: databasePath) == 0 {
            // A file this process may not write (mode 0400, another owner's): no connection
            // of ours can remove what the read made, and the files would keep their
            // read-only mode and block the owner's next write. An empty WAL holds nothing.
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
    /// costs one page write at close, and the next open writes nothing. When
    /// another connection still has the store open, nothing is done: the WAL stays
    /// as that connection leaves it.
    static func keepForNextOpen(ofStoreAt path: String) {
        let databasePath = DatabaseFile.followingSymbolicLinks(path)
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        guard sqlite3_open_v2(databasePath, &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { return }
        // Only as the file's last connection: another one holds a shared lock on the WAL index.
        var persist: Int32 = 1
        guard sqlite3_file_control(connection, "main", SQLITE_FCNTL_PERSIST_WAL, &persist) == SQLITE_OK else { return }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(connection, "PRAGMA user_version", -1, &statement, nil) == SQLITE_OK,
              sqlite3_step(statement) == SQLITE_ROW
        else { return }
        let version = sqlite3_column_int(statement, 0)
        sqlite3_finalize(statement)
        statement = nil
        // journal_size_limit -1: a persistent WAL is then kept as it is, not truncated to zero bytes.
        _ = sqlite3_exec(connection, "PRAGMA journal_size_limit = -1; PRAGMA user_version = \(version)", nil, nil, nil)
    }
}
