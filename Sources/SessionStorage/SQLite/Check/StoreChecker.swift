import Foundation
internal import GRDB

/// The queries behind ``SessionStoreFile/check(atPath:configuration:)``.
struct StoreChecker {
    typealias Problem = SessionStoreFile.Problem
    let db: Database
    /// The migrations this binary knows: the schema it checks against.
    var migrator = SchemaMigrator()
    /// Applied migrations this binary does not know (each additive): the objects
    /// they made are not this binary's to judge, and are left alone.
    var newerMigrations: [String] = []

    /// Problems of one family listed at most this many times per table or check.
    static let listedProblems = 100

    func problems() throws -> [Problem] {
        let integrity = try integrity()
        // Rows of a damaged file cannot be trusted to decode: report the damage alone.
        guard !integrity.contains(where: \.isStructural) else { return integrity.map(\.problem) }
        var problems = integrity.map(\.problem)
        let schema = try schemaProblems()
        problems += schema.problems
        // A table missing or changed: its rows cannot be read by the queries below.
        guard schema.tablesAreSound else { return problems }
        let values = try valueProblems()
        problems += values
        problems += try foreignKeys()
        // The checks below decode rows; a value of the wrong form is reported above instead.
        guard values.isEmpty else { return problems }
        problems += try tabLists()
        problems += try sortKeys()
        problems += try histories()
        problems += try closedEntries()
        problems += try searchIndex()
        problems += try tabPages()
        return problems
    }

    /// `PRAGMA integrity_check`, each line marked structural (the file's pages or
    /// indexes) or not (a `CHECK` or `NOT NULL` constraint of one table).
    private func integrity() throws -> [(problem: Problem, isStructural: Bool)] {
        try String.fetchAll(db, sql: "PRAGMA integrity_check")
            .filter { $0 != "ok" }
            .map { line in
                let isStructural = !(line.hasPrefix("CHECK constraint failed") || line.hasPrefix("NULL value in"))
                return (Problem(check: "integrity", location: "file", message: line), isStructural)
            }
    }

    private func foreignKeys() throws -> [Problem] {
        try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map { row in
            let table: String = try row.decode(atIndex: 0)
            let rowID: Int64? = try row.decode(atIndex: 1)
            let parent: String = try row.decode(atIndex: 2)
            return Problem(
                check: "foreign_key", location: "\(table) row \(rowID.map(String.init) ?? "?")",
                message: "refers to a missing row of \(parent).")
        }
    }
}
