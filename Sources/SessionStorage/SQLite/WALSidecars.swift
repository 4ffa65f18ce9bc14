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
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        guard sqlite3_open_v2(databasePath, &connection, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else { return }
        _ = sqlite3_exec(connection, "SELECT count(*) FROM sqlite_master", nil, nil, nil)
    }
}
