import Foundation
internal import GRDB

/// One object of a schema as `sqlite_master` lists it.
struct SchemaObject: Hashable {
    var type: String
    var name: String
    var sql: String?

    /// The objects of `db`'s main schema, without SQLite's own (`sqlite_%`).
    static func all(_ db: Database) throws -> [SchemaObject] {
        try Row.fetchAll(db, sql: """
            SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name
            """).map { row in
            SchemaObject(type: try row.decode(forColumn: "type"), name: try row.decode(forColumn: "name"),
                         sql: try row.decode(forColumn: "sql"))
        }
    }
}

extension SchemaMigrator {
    /// The schema these migrations make: read from a new in-memory database they migrate.
    func madeSchema() throws -> [SchemaObject] {
        let queue = try DatabaseQueue()
        try migrate(queue, path: ":memory:")
        return try queue.read(SchemaObject.all)
    }
}

extension StoreChecker {
    /// Every table, index, view and trigger the migrations made, as they made
    /// it, and nothing else: a dropped index no longer keeps sort keys unique, a
    /// dropped view breaks what reads it.
    ///
    /// - Returns: The problems, and whether every table is as made (the value
    ///   and list checks read the tables).
    func schemaProblems() throws -> (problems: [Problem], tablesAreSound: Bool) {
        let made = try migrator.madeSchema()
        let found = Dictionary(try SchemaObject.all(db).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let madeNames = Set(made.map(\.name))
        var problems: [Problem] = []
        var tablesAreSound = true
        for object in made {
            let location = "\(object.type) \(object.name)"
            guard let actual = found[object.name] else {
                problems.append(Problem(check: "schema", location: location,
                                        message: "is missing; the migrations made it."))
                if object.type == "table" { tablesAreSound = false }
                continue
            }
            // GRDB's own table is GRDB's to shape, whatever its version: it need only be there.
            if actual.type != object.type || (actual.sql != object.sql && object.name != "grdb_migrations") {
                problems.append(Problem(check: "schema", location: location,
                                        message: "differs from what the migrations made."))
                if object.type == "table" { tablesAreSound = false }
            }
        }
        // A newer binary's additive migrations made objects this one does not know: left alone.
        for object in found.values.sorted(by: { $0.name < $1.name })
        where !madeNames.contains(object.name) && newerMigrations.isEmpty {
            problems.append(Problem(check: "schema", location: "\(object.type) \(object.name)",
                                    message: "is not part of the session store's schema."))
        }
        return (problems, tablesAreSound)
    }
}
