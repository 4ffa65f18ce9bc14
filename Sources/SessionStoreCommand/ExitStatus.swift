import ArgumentParser
import Foundation
import SessionStorage

/// The exit statuses of `sessionstore`, after sysexits(3), and the one place
/// that maps errors to them.
enum ExitStatus {
    /// `check` found problems.
    static let problemsFound: Int32 = 1
    /// A bad argument, such as a path too long to open (EX_USAGE).
    static let usage: Int32 = 64
    /// Not a session store, corrupt, or malformed input (EX_DATAERR).
    static let dataError: Int32 = 65
    /// The database file does not exist (EX_NOINPUT).
    static let noInput: Int32 = 66
    /// The browser's host is not running (EX_UNAVAILABLE).
    static let unavailable: Int32 = 69
    /// The file or its directory cannot be written (EX_CANTCREAT).
    static let cannotCreate: Int32 = 73
    /// Writing the output failed: a full disk, a closed pipe (EX_IOERR).
    static let ioError: Int32 = 74
    /// Locked by another process beyond the busy timeout (EX_TEMPFAIL).
    static let temporaryFailure: Int32 = 75
    /// The database is newer than this tool (EX_CONFIG).
    static let newerDatabase: Int32 = 78
    /// Another failure of the underlying storage (EX_SOFTWARE).
    static let software: Int32 = 70

    /// The status for a storage error.
    static func code(for error: StorageError) -> Int32 {
        switch error {
        case .fileNotFound, .fileMovedOrDeleted, .closed: noInput
        case .notARegularFile, .notASessionStore, .corrupt, .migrationChecksumMismatch, .migrationsPending,
            .unknownBrowser, .unknownTab, .unknownClosedEntry, .unknownSnapshot, .foreignSnapshot, .invalidArchive, .nothingRecoverable:
            dataError
        case .pathTooLong: usage
        case .databaseNewerThanBinary: newerDatabase
        case .busy: temporaryFailure
        case .readOnly, .directoryNotFound, .fileExists: cannotCreate
        case .diskFull: ioError
        case .migrationFailed, .sqlite: software
        }
    }

    /// Prints the error as one line on stderr and exits with its status.
    static func fail(_ error: StorageError) -> Never {
        fail(message: message(for: error), status: code(for: error))
    }

    /// The library's message for `error`, with what to do about it from this command
    /// where that differs from what an app would do.
    static func message(for error: StorageError) -> String {
        switch error {
        case .fileNotFound(let path):
            "\(shown(path)): no such session store; run `sessionstore migrate --db \(shown(path))` to create one."
        case .migrationsPending(let path, let pending):
            "\(shown(path)): \(pending.count) migration(s) pending (\(pending.joined(separator: ", "))); run `sessionstore migrate --db \(shown(path))`."
        case .databaseNewerThanBinary(let path, let applied, let known):
            "\(shown(path)): migrated by a newer version that older ones must not write (it needs schema \(applied); this binary knows up to \(known)); use a newer sessionstore. Read-only commands (ls, export, …) still read it."
        case .corrupt(let path, _):
            error.description + " To salvage what can be read: sessionstore recover --db \(shown(path))"
        case .unknownTab, .unknownBrowser:
            error.description + " `sessionstore ls --all` lists the browsers and tabs."
        case .unknownClosedEntry:
            error.description + " `sessionstore closed` lists the recently closed entries."
        case .unknownSnapshot:
            error.description + " `sessionstore snapshots` lists them."
        case .foreignSnapshot:
            error.description + " To put its content into this store anyway: sessionstore restore-snapshot --foreign NAME."
        default:
            error.description
        }
    }

    /// Prints `message` as one line on stderr and exits with `status`; control
    /// characters from a document, a name or a path are escaped, never sent raw.
    static func fail(message: String, status: Int32) -> Never {
        StandardError.write("sessionstore: \(shown(message))\n")
        exit(status)
    }
}
