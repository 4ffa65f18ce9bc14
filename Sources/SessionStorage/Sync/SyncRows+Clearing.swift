import Foundation
internal import GRDB
import SessionModel

extension SyncRows {
    /// Forgets the other devices' tabs and closed tabs that show a page `filter`
    /// clears, anywhere in their navigations: clearing browsing data clears the
    /// cache of remote tabs too. (This device's own records follow through the
    /// outbox: the cleared entries' tabs are marked and sent again without them.)
    ///
    /// - Returns: How many remote records were forgotten.
    static func clearRemote(_ db: Database, matching filter: BrowsingDataFilter) throws -> Int {
        let records = try remoteRecords(db, matching: filter)
        for record in records {
            try removeRemote(db, recordID: record)
        }
        return records.count
    }

    /// Drops the queued commands (not yet sent) that name a page `filter` clears,
    /// or that were made in its time range: such a command never leaves.
    ///
    /// - Returns: How many commands were dropped.
    static func clearOutgoingCommands(_ db: Database, matching filter: BrowsingDataFilter) throws -> Int {
        let commands = try outgoingCommands(db, matching: filter)
        for command in commands {
            try db.execute(sql: "DELETE FROM sync_outgoing_commands WHERE command_id = ?", arguments: [command])
        }
        return commands.count
    }

    /// The ids of the other devices' records that show a page `filter` clears.
    static func remoteRecords(_ db: Database, matching filter: BrowsingDataFilter) throws -> [String] {
        guard try db.tableExists("sync_remote_records") else { return [] }
        let navigations = """
            SELECT DISTINCT r.record_id, json_extract(n.value, '$.url') AS url
            FROM sync_remote_records AS r, json_each(r.payload, '$.navigations') AS n
            WHERE r.kind IN ('tab', 'closed') AND json_valid(r.payload)
            """
        let records: [String]
        switch filter {
        case .url(let url):
            records = try String.fetchAll(db, sql: "SELECT record_id FROM (\(navigations)) WHERE url = ?", arguments: [url])
        case .host(let host):
            records = try matchingHost(
                host, rows: Row.fetchAll(
                    db, sql: "SELECT record_id, url FROM (\(navigations)) WHERE instr(lower(url), ?) > 0",
                    arguments: [host.lowercased()]))
        case .timeRange(let range):
            records = try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT r.record_id
                    FROM sync_remote_records AS r, json_each(r.payload, '$.navigations') AS n
                    WHERE r.kind IN ('tab', 'closed') AND json_valid(r.payload)
                        AND json_extract(n.value, '$.time') BETWEEN ? AND ?
                    """,
                arguments: milliseconds(range))
        case .browser:
            // Another device's tabs belong to none of this store's browsers.
            records = []
        case .all:
            records = try String.fetchAll(
                db, sql: "SELECT record_id FROM sync_remote_records WHERE kind IN ('tab', 'closed') AND payload <> ''")
        }
        return Array(Set(records)).sorted()
    }

    /// The ids of the queued commands that name a page `filter` clears (in any
    /// of their URLs), or, for a time range, that were made or name a navigation in it.
    static func outgoingCommands(_ db: Database, matching filter: BrowsingDataFilter) throws -> [String] {
        guard try db.tableExists("sync_outgoing_commands") else { return [] }
        let urls = """
            SELECT DISTINCT c.command_id, u.value AS url
            FROM sync_outgoing_commands AS c, json_tree(c.payload) AS u
            WHERE json_valid(c.payload) AND u.type = 'text' AND u.key IN ('url', 'virtual_url', 'favicon_url')
            """
        let commands: [String]
        switch filter {
        case .url(let url):
            commands = try String.fetchAll(db, sql: "SELECT command_id FROM (\(urls)) WHERE url = ?", arguments: [url])
        case .host(let host):
            commands = try matchingHost(
                host, rows: Row.fetchAll(
                    db, sql: "SELECT command_id, url FROM (\(urls)) WHERE instr(lower(url), ?) > 0",
                    arguments: [host.lowercased()]))
        case .timeRange(let range):
            commands = try String.fetchAll(
                db, sql: "SELECT command_id FROM sync_outgoing_commands WHERE created_at BETWEEN ? AND ?",
                arguments: [StoredTime.text(range.lowerBound), StoredTime.text(range.upperBound)])
                + String.fetchAll(
                    db,
                    sql: """
                        SELECT c.command_id FROM sync_outgoing_commands AS c, json_tree(c.payload) AS t
                        WHERE json_valid(c.payload) AND t.key = 'time' AND t.value BETWEEN ? AND ?
                        """,
                    arguments: milliseconds(range))
        case .browser:
            // A command does not record the browser it was sent from.
            commands = []
        case .all:
            commands = try String.fetchAll(db, sql: "SELECT command_id FROM sync_outgoing_commands")
        }
        return Array(Set(commands)).sorted()
    }

    /// The first column of the rows whose second, a URL, has the host `host`.
    private static func matchingHost(_ host: String, rows: [Row]) -> [String] {
        rows.compactMap { row in
            let url: String = row[1]
            return URLComponents(string: url)?.host?.lowercased() == host.lowercased() ? row[0] as String : nil
        }
    }

    /// A time range in a synced navigation's unit: milliseconds since 1970, widened to whole ones.
    private static func milliseconds(_ range: ClosedRange<Date>) -> StatementArguments {
        [
            Int64((range.lowerBound.timeIntervalSince1970 * 1000).rounded(.down)),
            Int64((range.upperBound.timeIntervalSince1970 * 1000).rounded(.up)),
        ]
    }
}
