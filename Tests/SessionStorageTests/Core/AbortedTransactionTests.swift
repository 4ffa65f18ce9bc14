import Foundation
import GRDB
import SessionModel
import SessionTestSupport
import Testing

@testable import SessionStorage

/// A mutation whose transaction SQLite rolled back by itself (here, a `ROLLBACK` run inside it, as
/// SQLite does on some errors) keeps nothing it does afterwards: each later statement fails instead
/// of committing on its own.
@Suite struct AbortedTransactionTests {
    @Test func statementsAfterAnAbortedTransaction_failAndKeepNothing() throws {
        let store = try TemporaryStore.onDisk()
        let browser = try store.browsers.createBrowser().id
        let before = try store.tabs.webStateList(in: browser).count
        let revisionBefore = try store.database.read { db in
            try Int64.fetchOne(db, sql: "SELECT revision FROM browsers WHERE id = ?", arguments: [browser.uuidString])
        }
        #expect(throws: (any Error).self) {
            try store.database.mutate { db in
                try db.execute(sql: "ROLLBACK")
                // A mutation that caught the error would go on writing.
                try? db.execute(sql: "UPDATE browsers SET revision = revision + 100 WHERE id = ?", arguments: [browser.uuidString])
                try db.execute(sql: "INSERT INTO tab_groups (id, browser_id, title, color, is_collapsed, created_at) VALUES (?, ?, 'x', 'red', 0, '2026-01-01 00:00:00.000')",
                               arguments: [UUID().uuidString.lowercased(), browser.uuidString])
            }
        }
        let revision = try store.database.read { db in
            try Int64.fetchOne(db, sql: "SELECT revision FROM browsers WHERE id = ?", arguments: [browser.uuidString])
        }
        #expect(revision == revisionBefore)
        let groups = try store.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM tab_groups") }
        #expect(groups == 0)
        #expect(try store.tabs.webStateList(in: browser).count == before)
        // The next mutation runs as usual.
        try store.tabs.insert(WebState(), in: browser, params: .automatic())
        #expect(try store.tabs.webStateList(in: browser).count == before + 1)
    }
}
