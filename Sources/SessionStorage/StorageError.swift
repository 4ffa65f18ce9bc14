import Foundation

/// An error of the storage layer, with what a caller needs to act on it.
///
/// Every message is one plain sentence that names the file (or the browser,
/// tab or closed entry) and what to do, fit to show in an app's alert
/// (``errorDescription`` is the same text). Messages never contain URLs,
/// titles or page state.
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The database file does not exist (and was not to be created).
    case fileNotFound(path: String)
    /// The directory that should hold the database file does not exist.
    case directoryNotFound(path: String)
    /// The store was closed (``SessionDatabase/close()``); open it again to use it.
    case closed(path: String)
    /// The path names a directory or another non-regular file.
    case notARegularFile(path: String)
    /// The file is not a SQLite database, or is a SQLite database of another application.
    case notASessionStore(path: String, reason: String)
    /// The file is a damaged SQLite database.
    case corrupt(path: String, reason: String)
    /// The file was migrated by a newer version of this library, in a way this
    /// version must not write: `applied` is the schema version a binary must know
    /// to write it, `known` the newest this binary knows. Reading it still works
    /// (``SessionDatabase/openReadOnly(atPath:configuration:checkingPages:)``) where the tables
    /// read are unchanged; an app can offer to export before starting fresh.
    /// A newer store whose newer migrations are all additive is not refused.
    case databaseNewerThanBinary(path: String, applied: String, known: String)
    /// An applied migration's recorded checksum differs from this binary's SQL.
    case migrationChecksumMismatch(path: String, identifier: String)
    /// A migration failed; the file was left as it was.
    case migrationFailed(path: String, identifier: String, reason: String)
    /// The database stayed locked by another connection beyond the busy timeout.
    case busy(path: String)
    /// The file or its directory cannot be written.
    case readOnly(path: String, reason: String)
    /// The file system holding the file is full (or the user's quota is spent):
    /// the write that met it wrote nothing.
    case diskFull(path: String)
    /// Another SQLite or I/O failure, with its context.
    case sqlite(path: String, operation: String, reason: String)
    /// The database has migrations this binary knows but has not applied yet.
    case migrationsPending(path: String, pending: [String])
    /// The file was deleted, or another file was put at its path, while the store was open:
    /// writing on would go to a file nobody can reach.
    case fileMovedOrDeleted(path: String)
    /// No browser with this identifier exists in the store.
    case unknownBrowser(String)
    /// No tab with this identifier exists in the store.
    case unknownTab(String)
    /// No recently closed entry with this identifier exists in the store.
    case unknownClosedEntry(String)
    /// No snapshot of this name exists for the store (or the store keeps none).
    case unknownSnapshot(String)
    /// The snapshot was taken of another store that was at this path before; it is not restored unless asked for.
    case foreignSnapshot(String)
    /// A file to be created already exists; nothing was written.
    case fileExists(path: String)
    /// The path is longer than SQLite can open (its full path, in bytes, against the limit).
    case pathTooLong(path: String, length: Int, limit: Int)
    /// Nothing could be read from a damaged file: no row survived.
    case nothingRecoverable(path: String)
    /// An import document is malformed or inconsistent: where (a JSON path or a
    /// line and column) and what; the store was not changed.
    case invalidArchive(location: String, reason: String)

    /// A failed write to `path` as the error to report: ``diskFull(path:)`` when the
    /// file system is full or the quota spent (`ENOSPC`, `EDQUOT`, in `error` or an
    /// error beneath it), else ``readOnly(path:reason:)``.
    package static func writing(_ path: String, failedWith error: any Error) -> StorageError {
        if let error = error as? StorageError { return error }
        var current: NSError? = error as NSError
        while let nsError = current {
            if nsError.domain == NSPOSIXErrorDomain && (nsError.code == Int(ENOSPC) || nsError.code == Int(EDQUOT)) {
                return .diskFull(path: path)
            }
            if nsError.domain == NSCocoaErrorDomain && nsError.code == NSFileWriteOutOfSpaceError {
                return .diskFull(path: path)
            }
            current = nsError.userInfo[NSUnderlyingErrorKey] as? NSError
        }
        return .readOnly(path: path, reason: "\(error)")
    }

    /// An `errno` from a failed write to `path`, as ``writing(_:failedWith:)`` reports it.
    package static func writing(_ path: String, errno code: Int32) -> StorageError {
        code == ENOSPC || code == EDQUOT ? .diskFull(path: path) : .readOnly(path: path, reason: String(cString: strerror(code)))
    }

    /// The message: one sentence naming the file and what to do.
    public var description: String {
        switch self {
        case .fileNotFound(let path):
            "\(shown(path)): no such session store; create it by opening it with `createIfMissing` on."
        case .directoryNotFound(let path):
            "\(shown(path)): the directory \((shown(path) as NSString).deletingLastPathComponent) does not exist; create it first."
        case .closed(let path):
            "\(shown(path)): the session store was closed; open it again to use it."
        case .notARegularFile(let path):
            "\(shown(path)): not a regular file; give the path of a session store file."
        case .notASessionStore(let path, let reason):
            "\(shown(path)): not a session store (\(reason)); nothing was changed."
        case .corrupt(let path, let reason):
            "\(shown(path)): the database is corrupt (\(reason)); restore it from a backup."
        case .databaseNewerThanBinary(let path, let applied, let known):
            "\(shown(path)): migrated by a newer version that older ones must not write (it needs schema \(applied); this binary knows up to \(known)); use a newer version of the app or tool, or read it only."
        case .migrationChecksumMismatch(let path, let identifier):
            "\(shown(path)): applied migration \(identifier) differs from this binary's copy of it; the schema cannot be trusted."
        case .migrationFailed(let path, let identifier, let reason):
            "\(shown(path)): migration \(identifier) failed (\(reason)); the file was left unchanged."
        case .busy(let path):
            "\(shown(path)): the database is locked by another process; try again when it is idle."
        case .readOnly(let path, let reason):
            "\(shown(path)): cannot write (\(reason)); check the file's and directory's permissions."
        case .diskFull(let path):
            "\(shown(path)): the disk is full; nothing was written. Free some space and try again."
        case .sqlite(let path, let operation, let reason):
            "\(shown(path)): \(operation) failed (\(reason))."
        case .migrationsPending(let path, let pending):
            "\(shown(path)): \(pending.count) migration(s) pending (\(pending.joined(separator: ", "))); open it for writing to migrate it."
        case .fileMovedOrDeleted(let path):
            "\(shown(path)): the file was deleted or replaced while the store was open; nothing more was written. Open it again."
        case .unknownBrowser(let id):
            "No browser \(id) in the session store."
        case .unknownTab(let id):
            "No tab \(id) in the session store."
        case .unknownClosedEntry(let id):
            "No recently closed entry \(id) in the session store."
        case .unknownSnapshot(let name):
            "No snapshot \(name) of the session store."
        case .foreignSnapshot(let name):
            "Snapshot \(name) was taken of another store that was at this path before, not of this one; nothing was restored."
        case .pathTooLong(let path, let length, let limit):
            "\(shown(path)): the path is too long for SQLite (\(length) bytes in full, at most \(limit)); use a shorter one."
        case .fileExists(let path):
            "\(shown(path)): already exists; choose another path, nothing was written."
        case .nothingRecoverable(let path):
            "\(shown(path)): no session data could be read from the file; nothing was written."
        case .invalidArchive(let location, let reason):
            "Invalid document at \(location): \(reason.hasSuffix(".") ? String(reason.dropLast()) : reason); the store was not changed."
        }
    }

    /// The same one-sentence message as ``description``, for alerts and `localizedDescription`.
    public var errorDescription: String? { description }
}

/// `text` with its control characters escaped (`\n`, `\u{1B}`), so a path
/// shown in a message stays on its one line and cannot drive a terminal.
package func shown(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        default:
            let bidiOrSeparator = (0x2028...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            if scalar.properties.generalCategory == .control || bidiOrSeparator {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result
}
