import Foundation
import SessionModel
import SessionStorage

/// A tab group a browser kept after it left the tab strip, as a reader found
/// it: a saved group (Firefox's "Save and Close Group") or a closed one that
/// can still be reopened (Firefox's "Delete Group" keeps it in the window's
/// recently closed groups).
///
/// ``BrowserImport/savedGroups`` and ``BrowserImport/closedGroups`` hold them
/// as read; the document holds them as saved groups and recently closed group
/// entries.
package struct ImportedTabGroup: Sendable, Hashable {
    /// The identifier its tabs name in ``SessionArchive/Tab/group``.
    package var id: TabGroupID
    /// The group's title; may be empty.
    package var title: String
    /// The group's colour (grey when the browser's colour is unknown).
    package var color: TabGroupColor
    /// Whether the group was collapsed.
    package var collapsed: Bool
    /// Whether the browser marked it saved.
    package var saved: Bool
    /// When it left the tab strip, if the browser recorded it.
    package var closedAt: Date?
    /// The imported browser it was closed from, when that window was imported.
    package var browser: BrowserID?
    /// Its tabs in their former order, with their histories.
    package var tabs: [SessionArchive.Tab]
    /// The split views among ``tabs``, in order; each tab names its split in ``SessionArchive/Tab/split``.
    package var splits: [SessionArchive.Split]
}
