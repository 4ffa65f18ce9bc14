import Foundation
import SessionModel

/// Archived tabs: tabs unused for a while, taken out of their windows' lists and kept with
/// their histories, then listed and restored (<doc:TabListRules>, Archived tabs).
///
/// Archiving moves rows; it reads and writes no history entry and no engine-state blob.
/// Archived tabs are never listed as a window, synced or counted among a window's tabs.
///
/// ## Topics
/// - ``archive(olderThan:in:exempting:)``
/// - ``archivedTabs()``
/// - ``restore(_:to:placement:)``
/// - ``observe(onChange:)``
public protocol TabArchiveRepository: Sendable {
    /// Archives every tab last active before `cutoff`, in one transaction.
    ///
    /// - Parameters:
    ///   - cutoff: Tabs whose ``WebState/lastActiveAt`` is earlier are archived.
    ///   - browser: Only this window; every open window when `nil`.
    ///   - exemptions: Which tabs stay; the active tab always does.
    /// - Returns: How many tabs were archived, and how many rows that wrote.
    @discardableResult
    func archive(
        olderThan cutoff: Date, in browser: BrowserID?, exempting exemptions: ArchiveExemptions
    ) throws -> TabArchiveResult

    /// ``archive(olderThan:in:exempting:)``, off the caller's thread.
    @discardableResult
    func archive(
        olderThan cutoff: Date, in browser: BrowserID?, exempting exemptions: ArchiveExemptions
    ) async throws -> TabArchiveResult

    /// Every archived tab, in the order they were archived.
    func archivedTabs() throws -> [ArchivedTab]

    /// Every archived tab, read off the caller's thread.
    func archivedTabs() async throws -> [ArchivedTab]

    /// Puts archived tabs back into a window's list, keeping their histories.
    ///
    /// - Parameters:
    ///   - ids: The archived tabs, restored in order of their former index.
    ///   - browser: The window; each tab's former window when `nil` (or the most recently active
    ///     window when that one is gone).
    ///   - placement: At the former index (and group), or at the end.
    /// - Throws: ``StorageError/unknownTab(_:)`` for a tab that is not archived;
    ///   ``StorageError/unknownBrowser(_:)`` when there is no window to restore to.
    func restore(_ ids: [WebStateID], to browser: BrowserID?, placement: ArchiveRestorePlacement) throws

    /// ``restore(_:to:placement:)``, off the caller's thread.
    func restore(_ ids: [WebStateID], to browser: BrowserID?, placement: ArchiveRestorePlacement) async throws

    /// Observes the archived tabs: `onChange` gets the list now and after every change of it,
    /// whoever makes it, on a background queue, in order, coalesced. A commit that does not
    /// change the archive costs one indexed read, however many tabs the archive holds.
    func observe(onChange: @escaping @Sendable (Result<[ArchivedTab], any Error>) -> Void) -> any StoreObservation
}
