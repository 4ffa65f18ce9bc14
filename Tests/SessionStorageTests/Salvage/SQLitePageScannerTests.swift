import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

/// The page scanner reads every row of an intact file exactly as SQLite does,
/// and on a damaged copy (zeroed or garbage pages, a truncated file, a looping
/// or broken overflow chain, random bytes) never traps and never returns a row
/// with content other than the original's.
@Suite struct SQLitePageScannerTests {
    // MARK: - Intact files

    /// Every row of `t`, at 512, 4096 and 65536-byte pages, equals `SELECT rowid, * FROM t`.
    @Test(arguments: [512, 4096, 65536])
    func intactFile_recordsEqualTheTable(pageSize: Int) throws {
        let fixture = try Fixture(pageSize: pageSize)
        defer { fixture.directory.remove() }
        let scanner = try SQLitePageScanner(path: fixture.path)

        #expect(scanner.pageSize == pageSize)
        #expect(scanner.reservedBytes == 0)
        #expect(scanner.usableSize == pageSize)
        #expect(scanner.headerIsIntact)
        #expect(scanner.textEncoding == .utf8)
        #expect(scanner.pageCount == fixture.bytes.count / pageSize)
        #expect(scanner.skippedCells == 0)
        #expect(!scanner.freelistPages.isEmpty, "the deleted rows freed pages")

        let records = scanner.tableRecords().filter(Fixture.isRow)
        #expect(records.count == fixture.expected.count)
        #expect(Set(records.map(\.rowid)).count == records.count, "no row twice")
        let mismatches = Fixture.mismatches(records, fixture.expected)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
        #expect(Dictionary(uniqueKeysWithValues: records.map { ($0.rowid, $0.values) }) == fixture.expected)
        #expect(records.allSatisfy { !scanner.freelistPages.contains($0.page) })

        // The other table, found by its shape.
        let others = scanner.tableRecords().filter { $0.values.first == .text("O") }
        #expect(others.map(\.values) == [[.text("O"), .integer(1)], [.text("O"), .integer(2)]])

        // The schema, and the leaves of `t` through its intact interior pages.
        let schema = scanner.schemaRecords()
        #expect(schema.map { $0.values[1] } == [.text("t"), .text("t_by_n"), .text("other")])
        #expect(schema.allSatisfy { $0.values.count == 5 && $0.values[0] != .null })
        let root = try #require(schema.first.flatMap { if case let .integer(root) = $0.values[3] { Int(root) } else { nil } })
        let leaves = scanner.leafPages(ofTableRootedAt: root)
        #expect(leaves.count > 1, "t has interior pages")
        #expect(Set(leaves) == Set(records.map(\.page)))
    }

    /// The values that exercise every serial type come back as the exact values SQLite returns.
    @Test func intactFile_everySerialType() throws {
        let fixture = try Fixture(pageSize: 4096)
        defer { fixture.directory.remove() }
        let records = try SQLitePageScanner(path: fixture.path).tableRecords().filter(Fixture.isRow)
        let integers = records.filter { $0.values[1] == .text("int") }.map { $0.values[2] }
        #expect(integers == Fixture.integers.map { .integer($0) })
        let reals = records.filter { $0.values[1] == .text("real") }
        #expect(reals.map { $0.values[2] } == reals.map { fixture.expected[$0.rowid]?[2] })
        #expect(reals.map { $0.values[2] } == Fixture.reals.map { .real($0) })
        #expect(reals.contains { if case let .real(value) = $0.values[2] { value == 0 && value.sign == .minus } else { false } })
        let long = try #require(records.first { $0.values[1] == .text("long200k") })
        guard case let .text(text) = long.values[2] else { Issue.record("not text: \(long.values[2])"); return }
        #expect(text.utf8.count == 200_000)
        #expect(text.hasPrefix("1,2,3,4,5,"))
        let blob = try #require(records.first { $0.values[1] == .text("blob50k") })
        guard case let .blob(data) = blob.values[2] else { Issue.record("not a blob"); return }
        #expect(data.count == 50_000)
    }

    /// A rowid alias column is stored as NULL; invalid UTF-8 stored as text reads as a blob.
    @Test func rowidAlias_andInvalidText() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("keyed.sqlite")
        try PlainSQLite.execute(
            """
            PRAGMA journal_mode = DELETE;
            CREATE TABLE keyed(id INTEGER PRIMARY KEY, name);
            INSERT INTO keyed VALUES (7, 'seven'), (1000000, CAST(x'fffe41' AS TEXT)), (-3, '');
            """, atPath: path)
        let records = try SQLitePageScanner(path: path).tableRecords().filter { $0.values.count == 2 }
        #expect(records.map(\.rowid) == [-3, 7, 1_000_000])
        #expect(records.map(\.values) == [
            [.null, .text("")], [.null, .text("seven")], [.null, .blob(Data([0xFF, 0xFE, 0x41]))],
        ])
    }

    /// Text in a UTF-16 database is decoded from the header's encoding.
    @Test(arguments: ["UTF-16le", "UTF-16be"])
    func utf16Database_textIsDecoded(encoding: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("utf16.sqlite")
        try PlainSQLite.execute(
            """
            PRAGMA encoding = '\(encoding)';
            PRAGMA journal_mode = DELETE;
            CREATE TABLE u(marker, x);
            INSERT INTO u VALUES ('U', 'héllo ✓ 🚀'), ('U', ''), ('U', 'plain');
            """, atPath: path)
        let scanner = try SQLitePageScanner(path: path)
        #expect(scanner.textEncoding == (encoding == "UTF-16le" ? .utf16le : .utf16be))
        let texts = scanner.tableRecords().filter { $0.values.first == .text("U") }.map { $0.values[1] }
        #expect(texts == [.text("héllo ✓ 🚀"), .text(""), .text("plain")])
    }

    /// A schema larger than page 1 is read through page 1's interior page.
    @Test func schemaSpanningSeveralPages_isReadFromTheTree() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("schema.sqlite")
        let padding = String(repeating: "x", count: 200)
        let tables = (0..<150).map { "CREATE TABLE table_\($0)(a, b DEFAULT '\(padding)');" }.joined(separator: "\n")
        try PlainSQLite.execute("PRAGMA journal_mode = DELETE;\n" + tables, atPath: path)
        let scanner = try SQLitePageScanner(path: path)
        let names = scanner.schemaRecords().map { $0.values[1] }
        #expect(names == (0..<150).map { .text("table_\($0)") })
        #expect(scanner.leafPages(ofTableRootedAt: 1).count > 1)
    }

    // MARK: - Damaged files

    /// Random pages zeroed or overwritten with garbage (some made to look like
    /// leaves): rows from intact pages are exact, nothing comes from a zeroed page.
    @Test(arguments: [512, 4096, 65536])
    func zeroedAndGarbagePages_rowsFromIntactPagesAreExact(pageSize: Int) throws {
        let fixture = try Fixture(pageSize: pageSize)
        defer { fixture.directory.remove() }
        for seed in UInt64(1)...4 {
            var rng = SplitMix64(seed: seed &* 7919 &+ UInt64(pageSize))
            var bytes = fixture.bytes
            let pages = Array(2...fixture.pageCount).shuffled(using: &rng)
            let damage = max(3, fixture.pageCount / 40)
            let zeroed = Set(pages.prefix(damage))
            let garbage = Set(pages.dropFirst(damage).prefix(damage))
            let fakeLeaves = Set(pages.dropFirst(2 * damage).prefix(3))
            for page in zeroed { fixture.fill(page, in: &bytes) { _ in 0 } }
            for page in garbage.union(fakeLeaves) { fixture.fill(page, in: &bytes) { _ in UInt8.random(in: 0...255, using: &rng) } }
            for page in fakeLeaves {
                let start = (page - 1) * pageSize
                bytes[start] = 0x0D
                bytes[start + 3] = 0
                bytes[start + 4] = UInt8.random(in: 1...40, using: &rng)
            }

            let scanner = try SQLitePageScanner(bytes: bytes)
            let records = scanner.tableRecords().filter(Fixture.isRow)
            let damaged = zeroed.union(garbage).union(fakeLeaves)
            let intact = records.filter { !damaged.contains($0.page) }
            let mismatches = Fixture.mismatches(intact, fixture.expected)
            #expect(mismatches.isEmpty, "seed \(seed): \(mismatches.prefix(3))")
            #expect(!scanner.tableRecords().contains { zeroed.contains($0.page) })
            #expect(records.count < fixture.expected.count, "seed \(seed): some rows were lost")
        }
    }

    /// A zeroed or garbage page in the middle or at the end of an overflow chain
    /// costs that row only, and is counted as one skipped cell.
    @Test func damagedOverflowPage_skipsThatRowOnly() throws {
        let fixture = try Fixture(pageSize: 4096)
        defer { fixture.directory.remove() }
        let longRowid = try fixture.rowid(named: "long200k")
        let text = try fixture.text(ofRow: longRowid)
        let middle = try fixture.page(holding: text.dropFirst(100_000).prefix(48))
        let last = try fixture.page(holding: text.suffix(48))
        var rng = SplitMix64(seed: 42)

        for (page, fill) in [(middle, 0), (last, 0), (middle, 1), (last, 1)] {
            var bytes = fixture.bytes
            if fill == 0 {
                fixture.fill(page, in: &bytes) { _ in 0 }
            } else {
                fixture.fill(page, in: &bytes) { _ in UInt8.random(in: 0...255, using: &rng) }
                bytes[(page - 1) * 4096] |= 0x80  // garbage never ends the chain with 0
            }
            try Self.expectOnlyRowLost(longRowid, in: bytes, fixture)
        }
    }

    /// An overflow chain that loops (to itself or an earlier page), leaves the
    /// file, or points at page 1 costs that row only.
    @Test func brokenOverflowChain_skipsThatRowOnly() throws {
        let fixture = try Fixture(pageSize: 4096)
        defer { fixture.directory.remove() }
        let longRowid = try fixture.rowid(named: "long200k")
        let text = try fixture.text(ofRow: longRowid)
        let early = try fixture.page(holding: text.dropFirst(30_000).prefix(48))
        let middle = try fixture.page(holding: text.dropFirst(100_000).prefix(48))
        #expect(early != middle)

        for target in [middle, early, fixture.pageCount + 5, 1, 0x7FFF_FFFF] {
            var bytes = fixture.bytes
            let start = (middle - 1) * 4096
            for index in 0..<4 { bytes[start + index] = UInt8(truncatingIfNeeded: target >> (8 * (3 - index))) }
            try Self.expectOnlyRowLost(longRowid, in: bytes, fixture)
        }
    }

    /// A file cut in the middle of a page: what is read is exact, and a file
    /// shorter than its header is refused with a clear error.
    @Test func truncatedFile_rowsReadAreExact() throws {
        let fixture = try Fixture(pageSize: 4096)
        defer { fixture.directory.remove() }
        for length in [fixture.bytes.count * 2 / 3 / 4096 * 4096 + 2048 + 7, fixture.bytes.count - 1, 4096 + 1000, 3000] {
            let path = fixture.directory.file("truncated-\(length).sqlite")
            try Data(fixture.bytes.prefix(length)).write(to: URL(fileURLWithPath: path))
            let scanner = try SQLitePageScanner(path: path)
            #expect(scanner.pageCount == (length + 4095) / 4096)
            let records = scanner.tableRecords().filter(Fixture.isRow)
            let mismatches = Fixture.mismatches(records, fixture.expected)
            #expect(mismatches.isEmpty, "length \(length): \(mismatches.prefix(3))")
            #expect(records.count <= fixture.expected.count)
            if length < fixture.bytes.count * 2 / 3 { #expect(records.count < fixture.expected.count) }
        }

        let short = fixture.directory.file("short.sqlite")
        try Data(fixture.bytes.prefix(50)).write(to: URL(fileURLWithPath: short))
        #expect(throws: SQLitePageScanner.ScanError.tooShort(path: short, byteCount: 50)) {
            try SQLitePageScanner(path: short)
        }
        let missing = fixture.directory.file("missing.sqlite")
        let error = #expect(throws: SQLitePageScanner.ScanError.self) { try SQLitePageScanner(path: missing) }
        if case .unreadable(let path, _)? = error { #expect(path == missing) } else { Issue.record("\(String(describing: error))") }
    }

    /// A damaged magic string: the header's page size if plausible, else 4096
    /// when the length is a multiple of it, else a clear error.
    @Test func damagedHeader_fallsBackTo4096() throws {
        let fixture = try Fixture(pageSize: 4096)
        defer { fixture.directory.remove() }

        var magicOnly = fixture.bytes
        for index in 0..<16 { magicOnly[index] = 0xA5 }
        let plausible = try SQLitePageScanner(bytes: magicOnly)
        #expect(!plausible.headerIsIntact)
        #expect(plausible.pageSize == 4096)
        let exact = plausible.tableRecords().filter(Fixture.isRow)
        #expect(Dictionary(uniqueKeysWithValues: exact.map { ($0.rowid, $0.values) }) == fixture.expected)

        var wholeHeader = fixture.bytes
        for index in 0..<100 { wholeHeader[index] = 0xA5 }
        let fallback = try SQLitePageScanner(bytes: wholeHeader)
        #expect(!fallback.headerIsIntact)
        #expect(fallback.pageSize == 4096)
        #expect(fallback.freelistPages.isEmpty)
        // Without the freelist, deleted rows on free pages come back; every live row does too.
        let all = fallback.tableRecords().filter(Fixture.isRow)
        let found = all.filter { fixture.expected[$0.rowid] != nil }
        #expect(all.count > found.count, "the deleted rows left on free pages")
        #expect(Fixture.mismatches(found, fixture.expected).isEmpty)
        #expect(Set(found.map(\.rowid)) == Set(fixture.expected.keys))

        let cut = Array(wholeHeader.prefix(wholeHeader.count - 100))
        #expect(throws: SQLitePageScanner.ScanError.self) { try SQLitePageScanner(bytes: cut) }
        var badSize = fixture.bytes
        badSize[16] = 0x03
        badSize[17] = 0x00
        #expect(try SQLitePageScanner(bytes: badSize).pageSize == 4096)
        #expect(throws: SQLitePageScanner.ScanError.self) { try SQLitePageScanner(bytes: Array(badSize.dropLast())) }
    }

    /// Random bytes changed anywhere, random lengths and pure noise never trap.
    @Test func randomDamage_neverTraps() throws {
        let fixture = try Fixture(pageSize: 512, rows: 1_500)
        defer { fixture.directory.remove() }
        var rng = SplitMix64(seed: 2026)
        for round in 0..<40 {
            var bytes = fixture.bytes
            for _ in 0..<Int.random(in: 1...400, using: &rng) {
                bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            if round % 4 == 0 { bytes.removeLast(Int.random(in: 0..<bytes.count - 100, using: &rng)) }
            if let scanner = try? SQLitePageScanner(bytes: bytes) {
                #expect(scanner.skippedCells >= 0)
                _ = scanner.schemaRecords()
                for root in 1...min(scanner.pageCount, 50) { _ = scanner.leafPages(ofTableRootedAt: root) }
            }
        }
        for round in 0..<20 {
            var noise = (0..<(8 * 4096)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            for page in 0..<8 where round % 2 == 0 {
                noise[page * 4096] = 0x0D
                noise[page * 4096 + 3] = 0
                noise[page * 4096 + 4] = 200
            }
            if let scanner = try? SQLitePageScanner(bytes: noise) {
                _ = scanner.tableRecords()
                _ = scanner.leafPages(ofTableRootedAt: 1)
            }
        }
    }

    // MARK: - Helpers

    /// Asserts the scan of `bytes` returns every row of `fixture` but `rowid`, exactly, and one skipped cell.
    static func expectOnlyRowLost(
        _ rowid: Int64, in bytes: [UInt8], _ fixture: Fixture, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let scanner = try SQLitePageScanner(bytes: bytes)
        let records = scanner.tableRecords().filter(Fixture.isRow)
        var expected = fixture.expected
        expected[rowid] = nil
        #expect(!records.contains { $0.rowid == rowid }, sourceLocation: sourceLocation)
        #expect(Fixture.mismatches(records, expected).isEmpty, sourceLocation: sourceLocation)
        #expect(records.count == expected.count, sourceLocation: sourceLocation)
        #expect(scanner.skippedCells == 1, sourceLocation: sourceLocation)
    }

    /// A database file with table `t` (marker 'T' first): thousands of rows of
    /// every serial type, texts and blobs that spill to overflow pages, a deleted
    /// range (with `secure_delete` off, so the freelist's pages keep the deleted
    /// rows), an index and a second table.
    struct Fixture {
        let directory: TemporaryDirectory
        let path: String
        let pageSize: Int
        let bytes: [UInt8]
        /// `SELECT rowid, * FROM t`, by rowid.
        let expected: [Int64: [SalvagedValue]]

        var pageCount: Int { bytes.count / pageSize }

        static let integers: [Int64] = [
            0, 1, 2, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32768, -32769, 65535, 65536,
            8_388_607, 8_388_608, -8_388_608, -8_388_609, 2_147_483_647, 2_147_483_648, -2_147_483_648,
            -2_147_483_649, 1 << 40, -(1 << 40), 140_737_488_355_327, 1 << 47, -(1 << 47), -(1 << 47) - 1,
            1 << 48, 1 << 62, -(1 << 62), .max, .min,
        ]
        static let reals: [Double] = [
            0.5, -1.5, 2.0, -0.0, 0.1, 3.141592653589793, 1e308, -1e-308, .leastNonzeroMagnitude, 123_456_789.123, 1e15, -2.5e-7,
        ]

        /// Whether `record` is a row of `t`.
        static func isRow(_ record: SalvagedRecord) -> Bool {
            record.values.count == 5 && record.values[0] == .text("T")
        }

        init(pageSize: Int, rows: Int = 5_000) throws {
            directory = try TemporaryDirectory()
            path = directory.file("scanned.sqlite")
            self.pageSize = pageSize
            let integerRows = Self.integers.map { "('T', 'int', \($0 == .min ? "-9223372036854775807 - 1" : "\($0)"))" }
            let realRows = Self.reals.map { "('T', 'real', \($0 == 0 && $0.sign == .minus ? "-0.0" : "\($0)"))" }
            let edge = pageSize - 35 - 40
            try PlainSQLite.execute(
                """
                PRAGMA page_size = \(pageSize);
                PRAGMA journal_mode = DELETE;
                PRAGMA secure_delete = OFF;
                CREATE TABLE t(kind, n, a, b, c);
                CREATE INDEX t_by_n ON t(n);
                CREATE TABLE other(kind, x);
                WITH RECURSIVE
                  seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < \(rows)),
                  k(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM k WHERE j < 3000),
                  long(s) AS (SELECT group_concat(j, '-') FROM k)
                INSERT INTO t(kind, n, a, b, c)
                SELECT 'T', i,
                  CASE i % 7 WHEN 0 THEN NULL WHEN 1 THEN i * 0.25 - 100.125 WHEN 2 THEN 'text ' || i || ' é✓🚀'
                    WHEN 3 THEN CAST('blob-' || i AS BLOB) WHEN 4 THEN i * i * i * 7919 WHEN 5 THEN -i
                    ELSE i * 1000003 END,
                  CASE WHEN i % 23 = 5 THEN substr(s, 1 + i % 50, (i * 37) % 9000) END,
                  CASE WHEN i % 11 = 0 THEN randomblob(i % 300) WHEN i % 11 = 1 THEN x'' END
                FROM seq, long;
                INSERT INTO t(kind, n, a) VALUES \(integerRows.joined(separator: ", "));
                INSERT INTO t(kind, n, a) VALUES \(realRows.joined(separator: ", "));
                WITH RECURSIVE k(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM k WHERE j < 40000)
                INSERT INTO t(kind, n, a) SELECT 'T', 'long200k', substr(group_concat(j, ','), 1, 200000) FROM k;
                WITH RECURSIVE k(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM k WHERE j < 5000)
                INSERT INTO t(kind, n, a) SELECT 'T', 'long20k', substr(group_concat(j, ';'), 1, 20000) FROM k;
                INSERT INTO t(kind, n, a) SELECT 'T', 'blob50k', randomblob(50000);
                WITH RECURSIVE
                  seq(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM seq WHERE i < 80),
                  k(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM k WHERE j < 20000),
                  long(s) AS (SELECT group_concat(j, '+') FROM k)
                INSERT INTO t(kind, n, a) SELECT 'T', 'edge', substr(s, 1 + i, \(edge) + i) FROM seq, long;
                DELETE FROM t WHERE n BETWEEN 2000 AND 2600;
                INSERT INTO other VALUES ('O', 1), ('O', 2);
                """, atPath: path)
            bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            expected = try Self.rows(of: "t", columns: ["kind", "n", "a", "b", "c"], atPath: path)
        }

        /// `SELECT rowid, <columns> FROM table`, each value exactly (reals by `quote`, which round-trips).
        static func rows(of table: String, columns: [String], atPath path: String) throws -> [Int64: [SalvagedValue]] {
            let encoded = columns.map { column in
                """
                typeof(\(column)) || ':' || CASE typeof(\(column)) WHEN 'null' THEN '' \
                WHEN 'text' THEN hex(\(column)) WHEN 'blob' THEN hex(\(column)) ELSE quote(\(column)) END
                """
            }
            let sql = "SELECT rowid || '|' || \(encoded.joined(separator: " || '|' || ")) FROM \(table)"
            var rows: [Int64: [SalvagedValue]] = [:]
            for line in try PlainSQLite.strings(sql, atPath: path) {
                let fields = line.split(separator: "|", omittingEmptySubsequences: false)
                let rowid = try #require(Int64(fields[0]))
                rows[rowid] = try fields.dropFirst().map(value)
            }
            return rows
        }

        /// The value of a field `type:content` of ``rows(of:columns:atPath:)``.
        static func value(_ field: Substring) throws -> SalvagedValue {
            let colon = try #require(field.firstIndex(of: ":"))
            let content = field[field.index(after: colon)...]
            switch field[..<colon] {
            case "null": return .null
            case "integer": return .integer(try #require(Int64(content)))
            case "real": return .real(try #require(Double(content)))
            case "text": return .text(String(decoding: try hex(content), as: UTF8.self))
            case "blob": return .blob(Data(try hex(content)))
            default: throw CocoaError(.coderInvalidValue)
            }
        }

        static func hex(_ text: Substring) throws -> [UInt8] {
            func nibble(_ digit: UInt8) throws -> UInt8 {
                switch digit {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
                default: throw CocoaError(.coderInvalidValue)
                }
            }
            let digits = Array(text.utf8)
            try #require(digits.count % 2 == 0)
            return try stride(from: 0, to: digits.count, by: 2).map { try nibble(digits[$0]) << 4 | nibble(digits[$0 + 1]) }
        }

        /// The records whose values differ from (or are missing in) `expected`, described.
        static func mismatches(_ records: [SalvagedRecord], _ expected: [Int64: [SalvagedValue]]) -> [String] {
            records.compactMap { record in
                expected[record.rowid] == record.values
                    ? nil : "rowid \(record.rowid) on page \(record.page): \(String(describing: record.values).prefix(200))"
            }
        }

        /// The rowid of the row whose `n` is `name`.
        func rowid(named name: String) throws -> Int64 {
            try #require(expected.first { $0.value[1] == .text(name) }?.key)
        }

        /// The UTF-8 bytes of row `rowid`'s column `a`.
        func text(ofRow rowid: Int64) throws -> [UInt8] {
            guard case let .text(text)? = expected[rowid]?[2] else { throw CocoaError(.coderValueNotFound) }
            return Array(text.utf8)
        }

        /// The page holding `needle` (found once in the file).
        func page<Needle: Collection<UInt8>>(holding needle: Needle) throws -> Int {
            let range = try #require(Data(bytes).range(of: Data(needle)))
            #expect(Data(bytes).range(of: Data(needle), in: range.upperBound..<bytes.count) == nil)
            return range.lowerBound / pageSize + 1
        }

        /// Overwrites page `page` of `bytes` with `byte(offset)`.
        func fill(_ page: Int, in bytes: inout [UInt8], with byte: (Int) -> UInt8) {
            let start = (page - 1) * pageSize
            for offset in start..<min(start + pageSize, bytes.count) { bytes[offset] = byte(offset) }
        }
    }
}
