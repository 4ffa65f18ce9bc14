/// The command ids of a `Session_*` file (open windows and tabs), as Chromium
/// numbers them in `components/sessions/core/session_service_commands.cc`
/// (`kCommandSetTabWindow` = 0 … `kCommandSetSplitTabData` = 37).
///
/// Ids 1, 10, 22 and 26 are obsolete there and 3, 4 were never used; they are
/// unknown here. Every id listed is understood: the ones this store has no use
/// for (bounds, workspaces, app ids, user-agent overrides, extra data) are read
/// past without a note.
enum SessionCommandID: UInt8, CaseIterable, Sendable {
    /// `kCommandSetTabWindow`: `{int32 window_id, int32 tab_id}`.
    case setTabWindow = 0
    /// `kCommandSetTabIndexInWindow`: `{int32 tab_id, int32 index}` (the tab's visual index).
    case setTabIndexInWindow = 2
    /// `kCommandTabNavigationPathPrunedFromBack` (obsolete, still read): `{int32 tab_id, int32 index}`.
    case tabNavigationPathPrunedFromBack = 5
    /// `kCommandUpdateTabNavigation`: a pickle of the tab id and a `SerializedNavigationEntry`.
    case updateTabNavigation = 6
    /// `kCommandSetSelectedNavigationIndex`: `{int32 tab_id, int32 index}`.
    case setSelectedNavigationIndex = 7
    /// `kCommandSetSelectedTabInIndex`: `{int32 window_id, int32 index}`.
    case setSelectedTabInIndex = 8
    /// `kCommandSetWindowType`: `{int32 window_id, int32 type}` (``ChromiumWindowType``).
    case setWindowType = 9
    /// `kCommandTabNavigationPathPrunedFromFront` (obsolete, still read): `{int32 tab_id, int32 count}`.
    case tabNavigationPathPrunedFromFront = 11
    /// `kCommandSetPinnedState`: `{int32 tab_id, bool pinned}` (8 bytes with padding).
    case setPinnedState = 12
    /// `kCommandSetExtensionAppID`: a pickle of the tab id and an app id.
    case setExtensionAppID = 13
    /// `kCommandSetWindowBounds3`: `{int32 window_id, x, y, w, h, show_state}`.
    case setWindowBounds3 = 14
    /// `kCommandSetWindowAppName`: a pickle of the window id and an app name.
    case setWindowAppName = 15
    /// `kCommandTabClosed`: `{int32 id, int64 close_time}` (16 bytes with padding).
    case tabClosed = 16
    /// `kCommandWindowClosed`: `{int32 id, int64 close_time}` (16 bytes with padding).
    case windowClosed = 17
    /// `kCommandSetTabUserAgentOverride` (obsolete, still read).
    case setTabUserAgentOverride = 18
    /// `kCommandSessionStorageAssociated`: a pickle of the tab id and a storage id.
    case sessionStorageAssociated = 19
    /// `kCommandSetActiveWindow`: `int32 window_id`.
    case setActiveWindow = 20
    /// `kCommandLastActiveTime`: `{int32 tab_id, int64 time}` (microseconds since 1601, 16 bytes).
    case lastActiveTime = 21
    /// `kCommandSetWindowWorkspace2`: a pickle of the window id and a workspace.
    case setWindowWorkspace2 = 23
    /// `kCommandTabNavigationPathPruned`: `{int32 tab_id, int32 index, int32 count}`.
    case tabNavigationPathPruned = 24
    /// `kCommandSetTabGroup`: `{int32 tab_id, uint64 high, uint64 low, bool has_group}` (32 bytes with padding).
    case setTabGroup = 25
    /// `kCommandSetTabGroupMetadata2`: a pickle of the group token, title, colour, collapsed, saved id.
    case setTabGroupMetadata2 = 27
    /// `kCommandSetTabGuid`: a pickle of the tab id and a GUID.
    case setTabGuid = 28
    /// `kCommandSetTabUserAgentOverride2`.
    case setTabUserAgentOverride2 = 29
    /// `kCommandSetTabData`: a pickle of the tab id and key/value pairs.
    case setTabData = 30
    /// `kCommandSetWindowUserTitle`: a pickle of the window id and a title.
    case setWindowUserTitle = 31
    /// `kCommandSetWindowVisibleOnAllWorkspaces`: `{int32 window_id, bool}`.
    case setWindowVisibleOnAllWorkspaces = 32
    /// `kCommandAddTabExtraData`: a pickle of the tab id, a key and data.
    case addTabExtraData = 33
    /// `kCommandAddWindowExtraData`: a pickle of the window id, a key and data.
    case addWindowExtraData = 34
    /// `kCommandSetPlatformSessionId`: a pickle of one string.
    case setPlatformSessionId = 35
    /// `kCommandSetSplitTab`: `{int32 tab_id, uint64 high, uint64 low, bool has_split}` (32 bytes with
    /// padding, shaped like `kCommandSetTabGroup`).
    case setSplitTab = 36
    /// `kCommandSetSplitTabData`: a pickle of the split token, a `double` ratio and a layout string
    /// (`"Vertical"` or `"Horizontal"`).
    case setSplitTabData = 37
}

/// The command ids of a `Tabs_*` file (recently closed tabs, groups and
/// windows), as Chromium numbers them in
/// `components/sessions/core/tab_restore_service_impl.cc`
/// (`kCommandUpdateTabNavigation` = 1 … `kCommandSetTabSplitData` = 16).
///
/// A closed tab is `selectedNavigationInTab`, then its optional pinned, group,
/// app and user-agent commands, then one `updateTabNavigation` per entry. A
/// closed window or group is its `window` or `createGroup` command followed by
/// that many closed-tab sequences; a closed split view is its `createSplit`
/// command followed by two.
enum TabRestoreCommandID: UInt8, CaseIterable, Sendable {
    /// `kCommandUpdateTabNavigation`: a pickle of the tab id and a `SerializedNavigationEntry`.
    case updateTabNavigation = 1
    /// `kCommandRestoredEntry`: `int32 entry_id`, an entry that was reopened.
    case restoredEntry = 2
    /// `kCommandWindowDeprecated`: `{int32 window_id, int32 selected_tab_index, int32 num_tabs[, int64 timestamp]}`.
    case windowDeprecated = 3
    /// `kCommandSelectedNavigationInTab`: `{int32 tab_id, int32 index, int64 timestamp}` (or the first 8 bytes).
    case selectedNavigationInTab = 4
    /// `kCommandPinnedState`: one `bool`, written only for a pinned tab.
    case pinnedState = 5
    /// `kCommandSetExtensionAppID`.
    case setExtensionAppID = 6
    /// `kCommandSetWindowAppName`.
    case setWindowAppName = 7
    /// `kCommandSetTabUserAgentOverride` (obsolete, still read).
    case setTabUserAgentOverride = 8
    /// `kCommandWindow`: a pickle of the window id, selected tab, tab count, timestamp, bounds, show state,
    /// workspace and type.
    case window = 9
    /// `kCommandSetTabGroupData`: a pickle of the tab's group token, title, colour and saved id.
    case setTabGroupData = 10
    /// `kCommandSetTabUserAgentOverride2`.
    case setTabUserAgentOverride2 = 11
    /// `kCommandSetWindowUserTitle`.
    case setWindowUserTitle = 12
    /// `kCommandCreateGroup`: a pickle of the group token, entry id, tab count, browser id, title, colour
    /// and saved id.
    case createGroup = 13
    /// `kCommandAddTabExtraData`.
    case addTabExtraData = 14
    /// `kCommandCreateSplit`: a pickle of the split token, entry id, `int64` timestamp, `double` ratio
    /// and `int32` layout (0 vertical, 1 horizontal); the next two closed tabs are its tabs.
    case createSplit = 15
    /// `kCommandSetTabSplitData`: a pickle of the tab's split token, `double` ratio and `int32` layout.
    case setTabSplitData = 16
}
