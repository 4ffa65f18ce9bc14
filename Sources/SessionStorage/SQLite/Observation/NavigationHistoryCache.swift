internal import GRDB
import SessionModel

/// The histories this store's writer last read or wrote, so an update of a tab's
/// history (back, forward, a page's title) does not read it all back each time.
/// A navigation commit needs none: it writes from the tab's row alone, and
/// forgets the tab here.
///
/// An entry is trusted only while no other connection has committed since it was
/// cached (`PRAGMA data_version` on the writer is unchanged) and the tab's row still
/// says what it said (its browser, `history_start` and current index). This store's
/// own writes that change entries another way (an import, a restored snapshot,
/// cleared browsing data) empty the cache; removing a tab removes its row, which
/// every read checks first. At most ``capacity`` tabs are kept.
final class NavigationHistoryCache: Sendable {
    static let capacity = 128

    private struct State {
        var dataVersion: Int64?
        var entries: [WebStateID: NavigationHistoryRows.Stored] = [:]
        var order: [WebStateID] = []
    }

    private let state = Protected(State())
    /// Where what a transaction wrote is put in the cache when it commits.
    private let afterTransaction: TransactionActions

    init(afterTransaction: TransactionActions) {
        self.afterTransaction = afterTransaction
    }

    /// The tab's stored history: the cached one if it is still what the file holds, else read.
    func stored(_ db: Database, tab: WebStateID) throws -> NavigationHistoryRows.Stored {
        let version = try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version"))
        let cached = state.withLock { state -> NavigationHistoryRows.Stored? in
            if state.dataVersion != version {
                state = State(dataVersion: version)
                return nil
            }
            return state.entries[tab]
        }
        let row = try NavigationHistoryRows.tabRow(db, tab: tab)
        if let cached {
            let browser: String? = try row.decode(forColumn: "browser_id")
            if browser == cached.browser?.uuidString,
               try row.decode(forColumn: "history_start") == cached.start,
               try row.decode(forColumn: "current_entry_index") == cached.history.currentIndex
            {
                return cached
            }
        }
        // The tab's row is read once, whether the cache answers or not.
        return try NavigationHistoryRows.load(db, tab: tab, row: row)
    }

    /// Caches `stored` once the current transaction commits.
    func wrote(_ stored: NavigationHistoryRows.Stored) {
        afterTransaction.add(onCommit: { [self] in
            state.withLock { state in
                if state.entries.updateValue(stored, forKey: stored.tab) == nil { state.order.append(stored.tab) }
                while state.order.count > Self.capacity {
                    state.entries[state.order.removeFirst()] = nil
                }
            }
        })
    }

    /// Forgets the tab's history.
    func forget(_ tab: WebStateID) {
        state.withLock { state in
            if state.entries.removeValue(forKey: tab) != nil { state.order.removeAll { $0 == tab } }
        }
    }

    /// Forgets every history: entries were changed other than by a history write.
    func removeAll() {
        state.withLock { $0 = State() }
    }
}
