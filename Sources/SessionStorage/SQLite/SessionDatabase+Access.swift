internal import GRDB
import SessionModel

extension SessionDatabase {
    /// Reads in one transaction, refusing a call made from inside a mutation.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try ReentrancyGuard.check()
        do {
            return try writer.read(body)
        } catch let error as DatabaseError {
            throw StorageError(error, path: path ?? ":memory:", operation: "reading")
        } catch let error as RowDecodingError {
            throw StorageError(error, path: path ?? ":memory:", operation: "reading")
        }
    }

    /// Runs a mutation in one IMMEDIATE transaction (taking the write lock
    /// first, so another process's write is waited for, not raced), marked so
    /// that a re-entrant call throws `WebStateListError.reentrantMutation`.
    func mutate<T>(_ body: (Database) throws -> T) throws -> T {
        try ReentrancyGuard.check()
        do {
            return try writer.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    // With the write lock held: is the path still the file this store opened?
                    if let opened = fileIdentity, let path, FileIdentity(path: path) != opened {
                        throw StorageError.fileMovedOrDeleted(path: path)
                    }
                    result = try ReentrancyGuard.mutating { try body(db) }
                    return .commit
                }
                return result!
            }
        } catch let error as DatabaseError {
            throw StorageError(error, path: path ?? ":memory:", operation: "writing")
        } catch let error as RowDecodingError {
            throw StorageError(error, path: path ?? ":memory:", operation: "writing")
        }
    }
}

extension SessionDatabase {
    /// The whole store as a document, in its canonical order (see ``SessionArchive``).
    public func exportArchive() throws -> SessionArchive {
        try read { db in try ArchiveRows.export(db) }
    }

    /// Checks the whole document, then writes it in one transaction.
    ///
    /// By default the document is merged: its identifiers must be new to the
    /// store. With `replacing`, the store's content is swapped for the
    /// document's. Nothing is written unless everything is valid.
    ///
    /// - Throws: ``StorageError/invalidArchive(location:reason:)``.
    public func importArchive(_ archive: SessionArchive, replacing: Bool = false) throws {
        let validated = try archive.validated(configuration: configuration)
        try mutate { db in
            try ArchiveRows.importArchive(db, archive, validated: validated, replacing: replacing)
        }
    }

    /// Checks that ``importArchive(_:replacing:)`` would accept the document,
    /// without writing: works on a store opened read-only, so a refused
    /// document leaves the file byte for byte as it was.
    ///
    /// - Throws: ``StorageError/invalidArchive(location:reason:)``.
    public func checkImport(_ archive: SessionArchive, replacing: Bool = false) throws {
        _ = try archive.validated(configuration: configuration)
        if !replacing {
            try read { db in try ArchiveRows.refuseExisting(db, archive) }
        }
        try read { db in try ArchiveRows.checkClosedEntryBrowsers(db, archive, replacing: replacing) }
    }
}
