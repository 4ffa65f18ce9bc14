import Foundation
internal import GRDB
import SessionModel

/// What ``SessionStoreFile/recover(from:to:configuration:)`` read, kept and repaired.
public struct RecoveryReport: Sendable, Hashable, Codable {
    /// One browser of the recovered store.
    public struct BrowserRecovery: Sendable, Hashable, Codable {
        /// The browser's identifier.
        public var browser: String
        /// Its tabs in the recovered store.
        public var tabs: Int
        /// The history entries of those tabs.
        public var historyEntries: Int
        /// Whether the browser had to be made anew, its own row being lost.
        public var recreated: Bool
    }

    /// The damaged file, never written.
    public var source: String
    /// The new store.
    public var output: String
    /// Whether the source's write-ahead log could be folded into the copy that was read.
    public var walMerged: Bool
    /// Table leaf pages read.
    public var pagesRead: Int
    /// Cells of those pages that could not be decoded (a bad overflow chain, a torn cell).
    public var cellsSkipped: Int
    /// Rows found per table, before any check.
    public var rowsFound: [String: Int]
    /// Rows kept per table, in the new store.
    public var rowsKept: [String: Int]
    /// Records that fit no session table: SQLite's schema rows, the migrations'
    /// bookkeeping, and rows too damaged to place.
    public var recordsUnclassified: Int
    /// The browsers of the new store, with what each holds.
    public var browsers: [BrowserRecovery]
    /// What was repaired so that every rule holds again, one line each.
    public var repairs: [String]
    /// The snapshot of the source taken because fewer tabs were kept than it held
    /// (its name in the source's snapshot folder); `nil` when none was needed or could be taken.
    public var sourceSnapshot: String?

    /// Open tabs recovered, in every browser.
    public var tabsRecovered: Int { browsers.reduce(0) { $0 + $1.tabs } }
}

extension SessionStoreFile {
    /// Reads everything that can still be read from a damaged store and writes
    /// it to a new, valid store at `output`; `source` is never written.
    ///
    /// The installed SQLite here has neither `sqlite_dbpage` nor the recovery
    /// API, and plain SQL stops at the first bad page. So the source (a copy of
    /// it, with its WAL folded in when SQLite can still do that) is read by
    /// SQLite's documented file format: every table b-tree leaf page, every
    /// cell, its overflow chain, skipping what fails. Each row is matched to a
    /// table by its shape (column count, types, identifiers) and inserted where
    /// the schema's constraints accept it. Then references are mended (a tab
    /// whose window row was lost gets a new window; rows pointing at nothing
    /// go), every browser's list is repaired by the tab-list rules (pinned
    /// prefix, contiguous groups, openers in the list, an active tab: the most
    /// recently active one when the stored one is lost), and every history is
    /// renumbered with its current index in range. The result passes `check`.
    ///
    /// - Returns: What was read, kept and repaired, per table and per browser.
    /// - Throws: ``StorageError/fileNotFound(path:)``, ``StorageError/fileExists(path:)``
    ///   for an existing `output`, ``StorageError/nothingRecoverable(path:)`` when no
    ///   row could be read, and ``StorageError`` when the new store cannot be written.
    public static func recover(
        from source: String, to output: String, configuration: SessionDatabase.Configuration = .init()
    ) throws -> RecoveryReport {
        defer { LockAudit.after(#function, onFileAt: source) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory) else {
            throw StorageError.fileNotFound(path: source)
        }
        if isDirectory.boolValue { throw StorageError.notARegularFile(path: source) }
        // What an earlier recover to this output cut short goes first (TemporaryClaim).
        removeLitter(beside: output, infix: ".recovering-")
        if FileManager.default.fileExists(atPath: output) { throw StorageError.fileExists(path: output) }
        // Errors about where the new store goes name `output`, never the file it is built in beside it.
        let outputDirectory = (output as NSString).deletingLastPathComponent
        let directory = outputDirectory.isEmpty ? "." : outputDirectory
        var directoryIsFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &directoryIsFolder), directoryIsFolder.boolValue
        else { throw StorageError.directoryNotFound(path: output) }
        guard access(directory, W_OK) == 0 else {
            throw StorageError.readOnly(path: output, reason: "its directory cannot be written")
        }

        // Claimed while it exists: a recover killed meanwhile leaves it to the next one (TemporaryClaim).
        let workFolder = try TemporaryClaim.privateFolder(prefix: "sessionstore-recover-")
        defer { workFolder.removeAndRelease() }
        let work = workFolder.path

        // 1. A copy of the source, with its WAL folded in if SQLite can still open it.
        let copy = work + "/source.sqlite"
        do {
            try copySource(source, to: copy)
        } catch {
            throw StorageError.readOnly(path: source, reason: "the file cannot be read")
        }
        let walMerged = Self.foldWAL(atPath: copy)

        // 2. Every row of every table leaf page.
        let scanner: SQLitePageScanner
        do {
            scanner = try SQLitePageScanner(path: copy)
        } catch {
            throw StorageError.nothingRecoverable(path: source)
        }
        let derivedPages = Self.derivedTablePages(scanner)

        // 3. A new store beside `output`, claimed while it is built, filled, mended, checked, then linked into place.
        let building = "\(output).recovering-\(getpid())-\(UUID().uuidString.prefix(8))"
        let originalConfiguration = configuration
        var configuration = configuration
        configuration.backupBeforeMigrating = false
        configuration.snapshots = nil
        let claim: TemporaryClaim
        do {
            claim = try TemporaryClaim(on: building)
        } catch {
            throw StorageError.readOnly(path: output, reason: "its directory cannot be written")
        }
        defer { claim.release() }
        do {
            try migrate(atPath: building, configuration: configuration)
            var report = try RecoveryBuilder(path: building, configuration: configuration)
                .fill(from: scanner, skippingPages: derivedPages, staging: work + "/salvaged.sqlite", source: source)
            guard report.rowsKept.values.reduce(0, +) > 0 else { throw StorageError.nothingRecoverable(path: source) }
            // The recovered store is the same store: it keeps the source's identity (when its
            // first migration's row can still be read), so the snapshots taken before the
            // damage stay its own, not another store's, once it is moved into place.
            if let recorded = Self.identity(ofCopyAt: copy) {
                let queue = try DatabaseQueue(path: building)
                try queue.write { try StoreIdentity.restore(recorded, in: $0) }
                try queue.close()
            }
            let problems = try check(atPath: building, configuration: configuration)
            guard problems.isEmpty else {
                throw StorageError.sqlite(
                    path: output, operation: "recovering", reason: "the recovered store still has \(problems.count) problem(s): \(problems[0])")
            }
            try DatabaseFile.synchronize(atPath: building)
            guard link(building, output) == 0 else {
                let code = errno
                if code == EEXIST { throw StorageError.fileExists(path: output) }
                throw StorageError.readOnly(path: output, reason: String(cString: strerror(code)))
            }
            DatabaseFile.synchronizeDirectory(of: output)
            DatabaseFile.removeWithCompanions(building)
            report.source = source
            report.output = output
            report.walMerged = walMerged
            // What the original held, as SQLite reads it when it still can; else the tab rows found.
            let held = try? readOnly(atPath: source, configuration: originalConfiguration, operation: "counting tabs") {
                try StoreIdentity.openTabCount($0)
            }
            if held.map({ report.tabsRecovered < $0 }) ?? ((report.rowsKept["tabs"] ?? 0) < (report.rowsFound["tabs"] ?? 0)) {
                report.sourceSnapshot = snapshotBeforeReplacing(damaged: source, configuration: originalConfiguration)
            }
            return report
        } catch {
            DatabaseFile.removeWithCompanions(building)
            let failure = StorageError(error, path: output, operation: "recovering")
            // The store being built is this call's own file: name the output the caller gave.
            if case .diskFull = failure { throw StorageError.diskFull(path: output) }
            throw failure
        }
    }

    /// Copies the source and its WAL into the private `copy`, reading both through
    /// SQLite (``StoreFileReader``): the source may be a live store that a
    /// connection of this process has open, whose locks a descriptor of ours
    /// would drop when closed. When SQLite can still start a read transaction, the
    /// file and the WAL are read inside it, so no checkpoint restarts the WAL in
    /// between; otherwise the file is read as it lies and the WAL, which holds no
    /// lock of SQLite's, is copied as a plain file. Both are copied a piece at a
    /// time, so memory stays bounded whatever their size.
    private static func copySource(_ source: String, to copy: String) throws {
        let sidecars = WALSidecars(ofStoreAt: source)
        // The reader is closed before the sidecars its read made are looked at.
        let consistent = try {
            let reader = try StoreFileReader(path: source)
            let copied: Bool? = try reader.withReadTransaction { copyWAL in
                try reader.copy(toNewFile: copy)
                try copyWAL?(copy + "-wal")
                return true
            }
            if copied == nil { try reader.copy(toNewFile: copy) }
            return copied != nil
        }()
        sidecars.removeIfMadeByReading()
        if !consistent, FileManager.default.fileExists(atPath: source + "-wal") {
            try FileManager.default.copyItem(atPath: source + "-wal", toPath: copy + "-wal")
        }
    }

    /// Folds the copy's WAL into it when SQLite can still open the file; best effort.
    private static func foldWAL(atPath path: String) -> Bool {
        guard FileManager.default.fileExists(atPath: path + "-wal") else { return true }
        var configuration = GRDB.Configuration()
        configuration.foreignKeysEnabled = false
        guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return false }
        defer { try? queue.close() }
        let folded = (try? queue.writeWithoutTransaction { try $0.checkpoint(.truncate) }) != nil
        return folded
    }
}

extension SessionStoreFile {
    /// The leaf pages of the derived tables (the search index's `tab_search*` and
    /// `tab_pages`, found through the schema when it can be read), whose rows are
    /// not salvaged: the new store's triggers rebuild them from the tabs and
    /// histories, and the FTS5 rows (an integer and a blob) would otherwise pass for page states.
    fileprivate static func derivedTablePages(_ scanner: SQLitePageScanner) -> Set<Int> {
        var derivedPages: Set<Int> = []
        for row in scanner.schemaRecords() where row.values.count == 5 {
            guard case .text(let type) = row.values[0], type == "table",
                  case .text(let name) = row.values[1], name.hasPrefix("tab_search") || name == "tab_pages",
                  case .integer(let root) = row.values[3], root > 1
            else { continue }
            derivedPages.formUnion(scanner.leafPages(ofTableRootedAt: Int(root)))
        }
        return derivedPages
    }
}

/// Fills a fresh store with salvaged rows and mends it until every rule holds.
private struct RecoveryBuilder {
    /// The tables a session store's rows go to, parents first.
    static let tables = [
        "closed_entries", "browsers", "tab_groups", "tabs", "tab_openers", "navigation_entries",
        "navigation_page_states", "tab_engine_states",
    ]

    struct Column {
        var name: String
        var type: String
        var notNull: Bool
        var isIntegerPrimaryKey: Bool
    }

    let queue: DatabaseQueue
    var columns: [String: [Column]] = [:]

    init(path: String, configuration: SessionDatabase.Configuration) throws {
        var grdb = configuration.grdb(readonly: false)
        grdb.foreignKeysEnabled = false
        queue = try DatabaseQueue(path: path, configuration: grdb)
        columns = try queue.read { db in
            var columns: [String: [Column]] = [:]
            for table in Self.tables {
                columns[table] = try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", arguments: [table])
                    .map { row in
                        let type = (row["type"] as String? ?? "").uppercased()
                        return Column(
                            name: row["name"], type: type, notNull: row["notnull"] as Bool? ?? false,
                            isIntegerPrimaryKey: (row["pk"] as Int? ?? 0) == 1 && type == "INTEGER")
                    }
            }
            return columns
        }
    }

    /// Inserts what fits of the records `scanner` reads (less those of `skippingPages`)
    /// from its copy of `source`, mends what is left, and describes it.
    ///
    /// The records go to a staging database at `staging` as they are read, one table
    /// of it per session table, and from there into the store, parents first, in the
    /// order they were read: memory stays bounded whatever the file's size.
    func fill(
        from scanner: SQLitePageScanner, skippingPages: Set<Int>, staging: String, source: String
    ) throws -> RecoveryReport {
        defer { try? queue.close() }
        var found: [String: Int] = [:]
        var unclassified = 0
        var scanned = (leafPages: 0, skippedCells: 0)
        var repairs: [String] = []
        var recreated: Set<String> = []
        var kept: [String: Int] = [:]
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS salvaged", arguments: [staging])
            defer { try? db.execute(sql: "DETACH DATABASE salvaged") }
            try db.inTransaction {
                var inserts: [String: Statement] = [:]
                for table in Self.tables {
                    guard let columns = columns[table] else { continue }
                    // Untyped columns: each value stays as the record held it, as `classify` matched it.
                    let names = columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
                    let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
                    try db.execute(sql: "CREATE TABLE salvaged.\(table) (\(names))")
                    inserts[table] = try db.makeStatement(sql: "INSERT INTO salvaged.\(table) (\(names)) VALUES (\(marks))")
                }
                scanned = try scanner.forEachRecord { record in
                    guard !skippingPages.contains(record.page) else { return }
                    guard let (table, values) = classify(record), let insert = inserts[table] else {
                        unclassified += 1
                        return
                    }
                    try insert.execute(arguments: StatementArguments(values))
                    found[table, default: 0] += 1
                }
                return .commit
            }
            if let error = scanner.readError {
                throw StorageError.readOnly(path: source, reason: "its copy cannot be read (\(error.localizedDescription))")
            }
            try db.inTransaction {
                for table in Self.tables {
                    guard let columns = columns[table] else { continue }
                    let names = columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
                    try db.execute(sql: "INSERT OR IGNORE INTO main.\(table) (\(names)) SELECT \(names) FROM salvaged.\(table) ORDER BY rowid")
                }
                recreated = try mendReferences(db, repairs: &repairs)
                try normalizeTimes(db, repairs: &repairs)
                for table in Self.tables {
                    kept[table] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
                }
                return .commit
            }
            try db.inTransaction {
                try repairLists(db, repairs: &repairs)
                try renumberHistories(db, repairs: &repairs)
                return .commit
            }
        }
        let browsers = try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT b.id,
                       (SELECT count(*) FROM tabs WHERE tabs.browser_id = b.id) AS tabs,
                       (SELECT count(*) FROM navigation_entries e JOIN tabs t ON t.id = e.tab_id
                        WHERE t.browser_id = b.id) AS entries
                FROM browsers AS b WHERE b.closed_entry_id IS NULL ORDER BY b.last_active_at DESC, b.id
                """).map { row in
                RecoveryReport.BrowserRecovery(
                    browser: row["id"], tabs: row["tabs"], historyEntries: row["entries"],
                    recreated: recreated.contains(row["id"]))
            }
        }
        return RecoveryReport(
            source: "", output: "", walMerged: false, pagesRead: scanned.leafPages, cellsSkipped: scanned.skippedCells,
            rowsFound: found, rowsKept: kept, recordsUnclassified: unclassified,
            browsers: browsers, repairs: repairs)
    }

    // MARK: - Matching rows to tables

    /// The one table whose columns the record's values fit, with the values to insert.
    func classify(_ record: SalvagedRecord) -> (String, [DatabaseValue])? {
        var match: (String, [DatabaseValue])?
        for table in Self.tables {
            guard let columns = columns[table], columns.count == record.values.count,
                  let values = fit(record, columns) else { continue }
            if match != nil { return nil }  // two tables fit: too ambiguous to keep
            match = (table, values)
        }
        return match
    }

    private func fit(_ record: SalvagedRecord, _ columns: [Column]) -> [DatabaseValue]? {
        var values: [DatabaseValue] = []
        for (column, value) in zip(columns, record.values) {
            if column.isIntegerPrimaryKey {
                // The rowid stands for an INTEGER PRIMARY KEY; the record holds NULL.
                guard value == .null else { return nil }
                values.append(record.rowid.databaseValue)
                continue
            }
            switch value {
            case .null:
                guard !column.notNull else { return nil }
                values.append(.null)
            case .integer(let integer):
                guard column.type == "INTEGER" else { return nil }
                values.append(integer.databaseValue)
            case .real(let real):
                guard column.type == "REAL" else { return nil }
                values.append(real.databaseValue)
            case .text(let text):
                guard column.type == "TEXT" else { return nil }
                if column.name == "id" || column.name.hasSuffix("_id") {
                    guard text.count == 36, UUID(uuidString: text) != nil else { return nil }
                }
                values.append(text.databaseValue)
            case .blob(let data):
                guard column.type == "BLOB" else { return nil }
                values.append(data.databaseValue)
            }
        }
        return values
    }

    // MARK: - Mending

    /// Deletes or mends every row that points at nothing; returns the browsers made anew.
    private func mendReferences(_ db: Database, repairs: inout [String]) throws -> Set<String> {
        func run(_ sql: String, _ what: String) throws {
            try db.execute(sql: sql)
            if db.changesCount > 0 { repairs.append("\(db.changesCount) \(what)") }
        }
        // A closed window whose entry is lost comes back as an open window.
        try run("""
            UPDATE browsers SET closed_entry_id = NULL
            WHERE closed_entry_id IS NOT NULL AND closed_entry_id NOT IN (SELECT id FROM closed_entries)
            """, "window(s) whose closed entry was lost reopened")
        // Tabs of a lost window get a new window of the same identifier.
        let orphans = try String.fetchAll(db, sql: """
            SELECT DISTINCT browser_id FROM tabs
            WHERE browser_id IS NOT NULL AND browser_id NOT IN (SELECT id FROM browsers)
            """)
        let now = Date()
        for id in orphans {
            try db.execute(
                sql: "INSERT INTO browsers (id, created_at, last_active_at, revision) VALUES (?, ?, ?, abs(random() % 4611686018427387904))",
                arguments: [id, now, now])
        }
        if !orphans.isEmpty { repairs.append("\(orphans.count) window(s) whose row was lost made anew for their tabs") }
        try run("""
            DELETE FROM tabs WHERE closed_entry_id IS NOT NULL AND closed_entry_id NOT IN (SELECT id FROM closed_entries)
            """, "closed tab(s) whose entry was lost dropped")
        try run("DELETE FROM tab_groups WHERE browser_id NOT IN (SELECT id FROM browsers)", "group(s) of no window dropped")
        try run("""
            UPDATE tabs SET group_id = NULL WHERE group_id IS NOT NULL AND group_id NOT IN (SELECT id FROM tab_groups)
            """, "tab(s) taken out of a lost group")
        try run("""
            DELETE FROM tab_openers
            WHERE tab_id NOT IN (SELECT id FROM tabs) OR opener_tab_id NOT IN (SELECT id FROM tabs)
            """, "opener link(s) to lost tabs dropped")
        try run("DELETE FROM navigation_entries WHERE tab_id NOT IN (SELECT id FROM tabs)", "history entries of lost tabs dropped")
        try run("DELETE FROM navigation_page_states WHERE entry_id NOT IN (SELECT id FROM navigation_entries)", "page states of lost entries dropped")
        try run("DELETE FROM tab_engine_states WHERE tab_id NOT IN (SELECT id FROM tabs)", "engine states of lost tabs dropped")
        try run("""
            UPDATE browsers SET active_tab_id = NULL
            WHERE active_tab_id IS NOT NULL AND active_tab_id NOT IN (SELECT id FROM tabs WHERE browser_id = browsers.id)
            """, "lost active tab(s) cleared")
        try run("""
            UPDATE closed_entries SET browser_id = NULL
            WHERE browser_id IS NOT NULL AND browser_id NOT IN (SELECT id FROM browsers)
            """, "closed entries' lost windows forgotten")
        // Recently closed entries hold what their kind needs (TabListRules.md, Recently closed).
        // A window naming a tab or group entry is open again first: deleting that entry must not drop it.
        try run("""
            UPDATE browsers SET closed_entry_id = NULL
            WHERE closed_entry_id IN (SELECT id FROM closed_entries WHERE kind <> 'window')
            """, "window(s) naming a closed tab or group entry reopened")
        try run("""
            DELETE FROM closed_entries WHERE kind IN ('tab', 'group')
                AND NOT EXISTS (SELECT 1 FROM tabs WHERE tabs.closed_entry_id = closed_entries.id)
            """, "closed tab or group entries whose tabs were lost dropped")
        try run("""
            DELETE FROM tabs WHERE closed_entry_id IN (SELECT id FROM closed_entries WHERE kind = 'tab')
                AND rowid NOT IN (SELECT min(rowid) FROM tabs WHERE closed_entry_id IS NOT NULL GROUP BY closed_entry_id)
            """, "extra tab(s) of closed tab entries dropped")
        try run("""
            DELETE FROM tabs WHERE closed_entry_id IN (SELECT id FROM closed_entries WHERE kind = 'window')
            """, "tab(s) held by a closed window entry itself dropped")
        try run("""
            DELETE FROM closed_entries WHERE kind = 'window'
                AND NOT EXISTS (SELECT 1 FROM browsers WHERE browsers.closed_entry_id = closed_entries.id)
            """, "closed window entries whose window was lost dropped")
        try run("""
            UPDATE closed_entries SET browser_id = (SELECT id FROM browsers WHERE closed_entry_id = closed_entries.id)
            WHERE kind = 'window' AND browser_id IS NOT (SELECT id FROM browsers WHERE closed_entry_id = closed_entries.id)
            """, "closed window entries pointed back at their window")
        try run("UPDATE tabs SET group_id = NULL WHERE closed_entry_id IS NOT NULL AND group_id IS NOT NULL",
                "closed tab(s) taken out of a group")
        try run("""
            DELETE FROM tab_openers WHERE tab_id IN (SELECT id FROM tabs WHERE closed_entry_id IS NOT NULL)
                OR opener_tab_id IN (SELECT id FROM tabs WHERE closed_entry_id IS NOT NULL)
            """, "opener link(s) of closed tabs dropped")
        // Whatever still breaks a reference goes, row by row.
        var rounds = 0
        while rounds < 8 {
            let broken = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
            if broken.isEmpty { break }
            for row in broken {
                let table: String = row[0]
                let rowID: Int64? = row[1]
                if let rowID {
                    try db.execute(sql: "DELETE FROM \(table) WHERE rowid = ?", arguments: [rowID])
                }
            }
            repairs.append("\(broken.count) row(s) with a broken reference dropped")
            rounds += 1
        }
        return Set(orphans)
    }

    /// Repairs every open browser's list by the tab-list rules and gives it an active tab.
    private func repairLists(_ db: Database, repairs: inout [String]) throws {
        for text in try String.fetchAll(db, sql: "SELECT id FROM browsers WHERE closed_entry_id IS NULL") {
            guard let browser = BrowserID(uuidString: text) else { continue }
            let repaired = try WebStateListRows.loadRepairing(db, browser: browser)
            _ = try WebStateListRows.persist(repaired, browser: browser, in: db)
            repairs += repaired.repairs.filter { $0.kind != .activeTabCleared }.map(\.description)
            // The stored active tab is lost: the most recently active tab takes its place.
            if repaired.stored.list.activeIndex == nil, !repaired.stored.list.isEmpty {
                try db.execute(sql: """
                    UPDATE browsers SET active_tab_id = (
                        SELECT id FROM tabs WHERE browser_id = ?1 ORDER BY last_active_at DESC, sort_key LIMIT 1)
                    WHERE id = ?1
                    """, arguments: [text])
                repairs.append("browser \(text): the most recently active tab made active")
            }
        }
    }

    /// Rewrites every time not in the store's form (`YYYY-MM-DD HH:MM:SS.SSS`, years
    /// 1 to 9999) in that form when it can be read as a time (another form SQLite or
    /// ISO 8601 knows), else as the time of the recovery: the rows stay, their times readable.
    private func normalizeTimes(_ db: Database, repairs: inout [String]) throws {
        let now = Date()
        var rewritten = 0
        // The tables rows were salvaged into (sync's start empty: the device pairs again).
        for table in StoredTable.all where Self.tables.contains(table.name) {
            for column in table.columns {
                guard case .time = column.kind else { continue }
                let rows = try Row.fetchAll(db, sql: """
                    SELECT rowid AS row_id, CAST("\(column.name)" AS TEXT) AS value FROM \(table.name)
                    WHERE (\(column.problemSQL)) IS NOT NULL
                    """)
                for row in rows {
                    let text: String? = try row.decode(forColumn: "value")
                    let rowID: Int64 = try row.decode(forColumn: "row_id")
                    let date = text.flatMap(Self.lenientDate).flatMap { date -> Date? in
                        let stored = StoredTime.text(date)
                        return stored.count == StoredTime.length && stored >= "0001" ? date : nil
                    } ?? now
                    try db.execute(sql: "UPDATE \(table.name) SET \"\(column.name)\" = ? WHERE rowid = ?",
                                   arguments: [StoredDate(date), rowID])
                    rewritten += 1
                }
            }
        }
        if rewritten > 0 { repairs.append("\(rewritten) time(s) rewritten in the store's form") }
    }

    /// A time in any form SQLite or ISO 8601 writes, or `nil`.
    private static func lenientDate(_ text: String) -> Date? {
        if let date = StoredTime.date(text) { return date }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// Numbers every history's entries from its start again, keeping their order,
    /// with the current index in range.
    private func renumberHistories(_ db: Database, repairs: inout [String]) throws {
        let gaps = try String.fetchAll(db, sql: """
            SELECT t.id FROM tabs AS t LEFT JOIN navigation_entries AS e ON e.tab_id = t.id
            GROUP BY t.id
            HAVING count(e.id) > 0 AND (min(e.sequence) <> t.history_start OR max(e.sequence) - min(e.sequence) + 1 <> count(e.id)
                   OR t.current_entry_index IS NULL OR t.current_entry_index >= count(e.id))
            UNION
            SELECT t.id FROM tabs AS t
            WHERE t.current_entry_index IS NOT NULL AND NOT EXISTS (SELECT 1 FROM navigation_entries WHERE tab_id = t.id)
            """)
        for tab in gaps {
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM navigation_entries WHERE tab_id = ? ORDER BY sequence", arguments: [tab])
            // Numbered from 0 again: a start near the largest integer would overflow.
            let start: Int64 = 0
            try db.execute(sql: "UPDATE tabs SET history_start = 0 WHERE id = ?", arguments: [tab])
            for (position, id) in ids.enumerated() {
                try db.execute(sql: "UPDATE navigation_entries SET sequence = ? WHERE id = ?", arguments: [-1 - Int64(position), id])
            }
            for (position, id) in ids.enumerated() {
                try db.execute(sql: "UPDATE navigation_entries SET sequence = ? WHERE id = ?", arguments: [start + Int64(position), id])
            }
            try db.execute(sql: """
                UPDATE tabs SET current_entry_index = CASE
                    WHEN ?2 = 0 THEN NULL
                    WHEN current_entry_index IS NULL OR current_entry_index >= ?2 THEN ?2 - 1
                    ELSE current_entry_index END
                WHERE id = ?1
                """, arguments: [tab, ids.count])
        }
        if !gaps.isEmpty { repairs.append("\(gaps.count) histories renumbered, their current entries in range") }
    }
}

extension SessionStoreFile {
    /// The first migration's row of the source's private copy, read as it is; `nil` when unreadable.
    fileprivate static func identity(ofCopyAt copy: String) -> (identifier: String, appliedAt: String)? {
        var readOnly = Configuration()
        readOnly.readonly = true
        guard let queue = try? DatabaseQueue(path: copy, configuration: readOnly) else { return nil }
        defer { try? queue.close() }
        return (try? queue.read { try StoreIdentity.firstMigration($0) }) ?? nil
    }
}
