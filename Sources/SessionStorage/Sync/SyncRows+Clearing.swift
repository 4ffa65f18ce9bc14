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
        guard try db.tableExists("sync_remote_records") else { return 0 }
        let navigations = """
            SELECT DISTINCT r.record_id, json_extract(n.value, '$.url') AS url
            FROM sync_remote_records AS r, json_each(r.payload, '$.navigations') AS n
            WHERE r.kind IN ('tab', 'closed') AND json_valid(r.payload)
            """
        var records: [String]
        switch filter {
        case .url(let url):
            records = try String.fetchAll(db, sql: "SELECT record_id FROM (\(navigations)) WHERE url = ?", arguments: [url])
        case .host(let host):
            records = try Row.fetchAll(
                db, sql: "SELECT record_id, url FROM (\(navigations)) WHERE instr(lower(url), ?) > 0",
                arguments: [host.lowercased()]
            ).compactMap { row in
                let url: String = row[1]
                return URLComponents(string: url)?.host?.lowercased() == host.lowercased() ? row[0] as String : nil
            }
        case .timeRange(let range):
            records = try String.fetchAll(
                db,
                sql: """
                    SELECT DISTINCT r.record_id
                    FROM sync_remote_records AS r, json_each(r.payload, '$.navigations') AS n
                    WHERE r.kind IN ('tab', 'closed') AND json_valid(r.payload)
                        AND json_extract(n.value, '$.time') BETWEEN ? AND ?
                    """,
                arguments: [
                    Int64((range.lowerBound.timeIntervalSince1970 * 1000).rounded(.down)),
                    Int64((range.upperBound.timeIntervalSince1970 * 1000).rounded(.up)),
                ])
        case .all:
            records = try String.fetchAll(
                db, sql: "SELECT record_id FROM sync_remote_records WHERE kind IN ('tab', 'closed') AND payload <> ''")
        }
        records = Array(Set(records))
        for record in records {
            try removeRemote(db, recordID: record)
        }
        return records.count
    }
}
