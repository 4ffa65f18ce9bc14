import Foundation
internal import GRDB

extension StoreChecker {
    /// Every value of every table against ``StoredTable``'s rules: the type and
    /// form in SQL, then free text byte by byte (UTF-8, no NUL) in Swift.
    func valueProblems() throws -> [Problem] {
        var problems: [Problem] = []
        for table in StoredTable.all {
            problems += try ruleProblems(in: table)
            problems += try textProblems(in: table)
        }
        return problems
    }

    /// The SQL rules: one query per table, returning only the rows that break one.
    private func ruleProblems(in table: StoredTable) throws -> [Problem] {
        let columns = table.columns.enumerated().map { index, column in "\(column.problemSQL) AS c\(index)" }
        let rows = table.rowRules.enumerated().map { index, rule in
            "CASE WHEN NOT (\(rule.sql)) THEN '\(rule.problem.replacingOccurrences(of: "'", with: "''"))' END AS r\(index)"
        }
        let names = table.columns.indices.map { "c\($0)" } + table.rowRules.indices.map { "r\($0)" }
        let sql = """
            SELECT * FROM (SELECT \(table.key) AS row_id, \((columns + rows).joined(separator: ", ")) FROM \(table.name))
            WHERE coalesce(\((names + ["NULL"]).joined(separator: ", "))) IS NOT NULL
            ORDER BY row_id LIMIT \(Self.listedProblems + 1)
            """
        var problems: [Problem] = []
        for (offset, row) in try Row.fetchAll(db, sql: sql).enumerated() {
            let rowID = Self.rowName(try row.decode(DatabaseValue.self, forColumn: "row_id"))
            guard offset < Self.listedProblems else {
                problems.append(more(in: table.name, after: rowID))
                break
            }
            let location = "\(table.name) row \(rowID)"
            for (index, column) in table.columns.enumerated() {
                if let message: String = try row.decode(forColumn: "c\(index)") {
                    problems.append(Problem(check: "value", location: location, message: "\(column.name) \(message)."))
                }
            }
            for index in table.rowRules.indices {
                if let message: String = try row.decode(forColumn: "r\(index)") {
                    problems.append(Problem(check: "value", location: location, message: message))
                }
            }
        }
        return problems
    }

    /// Free text that is not UTF-8 or holds a NUL: SQLite keeps such bytes, and
    /// readers either replace them or cut the text at the NUL.
    private func textProblems(in table: StoredTable) throws -> [Problem] {
        let columns = table.freeTextColumns
        guard !columns.isEmpty else { return [] }
        let selected = columns.map { "CASE WHEN typeof(\"\($0)\") = 'text' THEN CAST(\"\($0)\" AS BLOB) END" }
        let cursor = try Row.fetchCursor(db, sql: """
            SELECT \(table.key), \(selected.joined(separator: ", ")) FROM \(table.name) ORDER BY \(table.key)
            """)
        var problems: [Problem] = []
        var listed = 0
        while let row = try cursor.next() {
            for (index, column) in columns.enumerated() {
                let message = try row.withUnsafeData(atIndex: index + 1) { data in
                    data.flatMap { $0.withUnsafeBytes(Self.textProblem) }
                }
                guard let message else { continue }
                let rowID = Self.rowName(try row.decode(DatabaseValue.self, atIndex: 0))
                guard listed < Self.listedProblems else { return problems + [more(in: table.name, after: rowID)] }
                listed += 1
                problems.append(Problem(check: "value", location: "\(table.name) row \(rowID)",
                                        message: "\(column) \(message)."))
            }
        }
        return problems
    }

    /// What is wrong with text stored as `bytes`, or `nil` when it is UTF-8 without NUL.
    static func textProblem(_ bytes: UnsafeRawBufferPointer) -> String? {
        var isASCII = true
        for (offset, byte) in bytes.enumerated() {
            if byte == 0 { return "holds a NUL character at byte \(offset); readers cut the text there" }
            if byte >= 0x80 { isASCII = false }
        }
        if isASCII { return nil }
        let hadError = transcode(
            bytes.makeIterator(), from: UTF8.self, to: UTF32.self, stoppingOnError: true, into: { _ in })
        return hadError ? "is not valid UTF-8" : nil
    }

    /// A row's key as a location names it: its rowid, or the key of a table without one.
    private static func rowName(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .int64(let integer): String(integer)
        case .string(let text): text
        default: value.description
        }
    }

    private func more(in table: String, after rowID: String) -> Problem {
        Problem(check: "value", location: "\(table) row \(rowID) and after",
                message: "more rows like these; only the first \(Self.listedProblems) are listed.")
    }
}
