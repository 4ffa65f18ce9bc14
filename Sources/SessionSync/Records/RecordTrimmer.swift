import Foundation
import SessionStorage

/// Makes a payload fit the sealed-record cap, dropping what matters least first.
enum RecordTrimmer {
    /// The payload of `content`, at most `limit` bytes.
    static func fitting(_ content: SyncRecordContent, within limit: Int) throws -> Data {
        var content = content
        var payload = try content.encoded()
        while payload.count > limit, let smaller = trimmed(content) {
            content = smaller
            payload = try content.encoded()
        }
        return payload
    }

    /// `content` with one thing less: its farthest navigation from the current
    /// one, then the current page's extra URLs, then its URL cut to the origin.
    private static func trimmed(_ content: SyncRecordContent) -> SyncRecordContent? {
        switch content {
        case .tab(var tab):
            guard let (navigations, current) = trimmed(tab.navigations, current: tab.current) else { return nil }
            tab.navigations = navigations
            tab.current = current
            return .tab(tab)
        case .closed(var closed):
            guard let (navigations, current) = trimmed(closed.navigations, current: closed.current) else { return nil }
            closed.navigations = navigations
            closed.current = current
            return .closed(closed)
        case .device(var device):
            // Windows grow with the device's windows, never with tabs: the oldest go.
            guard device.windows.count > 1 else { return nil }
            device.windows.removeLast()
            return .device(device)
        case .group(var group):
            guard group.title.count > 64 else { return nil }
            group.title = String(group.title.prefix(64))
            return .group(group)
        }
    }

    private static func trimmed(_ navigations: [SyncedNavigation], current: Int?) -> ([SyncedNavigation], Int?)? {
        let current = current ?? 0
        if navigations.count > 1 {
            var navigations = navigations
            let farthest = navigations.indices.max { abs($0 - current) < abs($1 - current) } ?? 0
            guard farthest != current else { return nil }
            navigations.remove(at: farthest)
            return (navigations, farthest < current ? current - 1 : current)
        }
        guard var page = navigations.first else { return nil }
        if page.faviconURL != nil || page.virtualURL != nil {
            page.faviconURL = nil
            page.virtualURL = nil
            return ([page], 0)
        }
        let origin = SyncedHistory.origin(of: page.url) ?? String(page.url.prefix(64))
        guard origin != page.url else { return nil }
        page.url = origin
        return ([page], 0)
    }
}
