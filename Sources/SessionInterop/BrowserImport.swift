import Foundation
import SessionModel
import SessionStorage

/// What a browser's session file held, as a document this store imports, and
/// what the reader had to leave out.
///
/// The importers (``FirefoxSessionReader``, ``ChromiumSessionReader``) only
/// read files; `sessionstore import --from` then imports ``archive`` in one
/// transaction, as it imports its own export.
public struct BrowserImport: Sendable {
    /// The session, as this store's document.
    public var archive: SessionArchive
    /// One line per kind of thing that was skipped (for example unknown
    /// command ids and how many), for the command to print as notes.
    public var skipped: [String]
    /// Saved tab groups as the reader found them; ``archive`` holds them as its
    /// ``SessionArchive/savedGroups`` (without their split views).
    package var savedGroups: [ImportedTabGroup] = []
    /// Closed tab groups as the reader found them; ``archive`` holds them as
    /// recently closed group entries (without their split views).
    package var closedGroups: [ImportedTabGroup] = []
    /// The groups of ``archive`` that the browser marks saved, with the
    /// browser's own id for each (Chromium's `saved_guid`).
    package var savedGroupIDs: [TabGroupID: String] = [:]

    /// Creates an import result.
    public init(archive: SessionArchive, skipped: [String] = []) {
        self.archive = archive
        self.skipped = skipped
    }
}

/// A browser's session file that cannot be read: the path and one line saying why.
public struct BrowserFileError: Error, LocalizedError, Sendable, Equatable {
    /// The file or directory that was read.
    public var path: String
    /// What is wrong with it, in one line.
    public var reason: String

    /// Creates an error for `path`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var errorDescription: String? { "\(path): \(reason)" }
}
