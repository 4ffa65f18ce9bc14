import Foundation
import SessionTestSupport
import Testing

/// Identifiers you can type (issue 32): text output prints short identifiers, and
/// every argument naming a tab, browser, closed entry or snapshot takes a unique
/// prefix, as git takes a commit's; run with the built binary.
@Suite struct IdentifierPrefixTests {
    let binary = SessionStoreBinary()

    /// The `ls` lines of tabs: their index, short identifier and URL.
    private func listedTabs(_ path: String, in dir: TemporaryDirectory) throws -> [(id: String, url: String)] {
        let ls = try binary.run(["ls", "--db", path], in: dir.path)
        #expect(ls.status == 0, "\(ls)")
        return ls.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard line.hasPrefix("  "), fields.count >= 3, Int(fields[fields[0] == "*" ? 1 : 0]) != nil else { return nil }
            return (String(fields[fields[0] == "*" ? 2 : 1]), String(fields.last!))
        }
    }

    @Test func lsPrintsShortTabIDs_thatShowTakes() throws {
        try TemporaryDirectory.with { dir in
            #expect(try binary.run(["demo", "--db", "s.sqlite", "--browsers", "2", "--tabs", "4", "--seed", "3"], in: dir.path).status == 0)
            let tabs = try listedTabs("s.sqlite", in: dir)
            #expect(tabs.count == 7, "\(tabs)")
            for tab in tabs {
                #expect(tab.id.count == 8 && tab.id.allSatisfy(\.isHexDigit), "\(tab)")
                let show = try binary.run(["show", tab.id, "--db", "s.sqlite"], in: dir.path)
                #expect(show.status == 0 && show.stdout.hasPrefix("tab \(tab.id)-"), "\(show)")
                #expect(show.stdout.contains("*") && show.stdout.contains(tab.url), "\(show)")
                // Case and dashes do not matter, and the whole identifier works too.
                let upper = try binary.run(["show", String(tab.id.prefix(4)) + "-" + tab.id.dropFirst(4).uppercased(), "--db", "s.sqlite"], in: dir.path)
                #expect(upper.stdout == show.stdout, "\(upper)")
            }
        }
    }

    /// Each `search` line starts with the tab's short identifier and its BROWSER:INDEX,
    /// and both, pasted into `show`, show that tab; the browser part works for `ls --browser`.
    @Test func searchOutput_isPasteableIntoShow_andLsBrowser() throws {
        try TemporaryDirectory.with { dir in
            #expect(try binary.run(["demo", "--db", "s.sqlite", "--browsers", "2", "--tabs", "4", "--seed", "3"], in: dir.path).status == 0)
            let search = try binary.run(["search", "example", "--db", "s.sqlite"], in: dir.path)
            #expect(search.status == 0, "\(search)")
            let lines = search.stdout.split(separator: "\n")
            #expect(lines.count == 7, "\(search)")
            for line in lines {
                let fields = line.split(separator: "\t").map(String.init)
                let byID = try binary.run(["show", fields[0], "--db", "s.sqlite"], in: dir.path)
                let byPlace = try binary.run(["show", fields[1], "--db", "s.sqlite"], in: dir.path)
                #expect(byID.status == 0 && byID == byPlace, "\(line): \(byID) \(byPlace)")
                #expect(byID.stdout.contains(fields[3]), "\(line): \(byID)")
                let browser = String(fields[1].split(separator: ":")[0])
                let ls = try binary.run(["ls", "--browser", browser, "--db", "s.sqlite"], in: dir.path)
                #expect(ls.status == 0 && ls.stdout.contains("browser \(browser)") && ls.stdout.contains(fields[0]), "\(ls)")
            }
            let browser = String(lines[0].split(separator: "\t")[1].split(separator: ":")[0])
            let past = try binary.run(["show", browser + ":99", "--db", "s.sqlite"], in: dir.path)
            #expect(past.status == 65 && past.stderr.contains("has no tab at index 99"), "\(past)")
        }
    }

    /// A prefix that begins several tabs is refused (64), listing them; one that begins
    /// none is a data error (65); one that is no prefix is a usage error (64). The store is unchanged.
    @Test func anAmbiguousPrefix_listsTheCandidates() throws {
        try TemporaryDirectory.with { dir in
            // 1,500 tabs: some of them share their first 4 digits.
            #expect(try binary.run(["demo", "--db", "s.sqlite", "--browsers", "1", "--tabs", "1500", "--seed", "4"], in: dir.path).status == 0)
            let shared = try #require(try sqlite(dir.file("s.sqlite"),
                "SELECT substr(id, 1, 4) AS p FROM tabs GROUP BY p HAVING count(*) > 1 ORDER BY p LIMIT 1"))
            let candidates = try #require(try sqlite(dir.file("s.sqlite"), "SELECT group_concat(id, ' ') FROM (SELECT id FROM tabs WHERE id LIKE '\(shared)%' ORDER BY id)"))
            let before = fileBytes(dir.file("s.sqlite"))
            let ambiguous = try binary.run(["show", shared, "--db", "s.sqlite"], in: dir.path)
            #expect(ambiguous.status == 64 && ambiguous.stdout.isEmpty, "\(ambiguous)")
            #expect(ambiguous.stderr.contains("'\(shared)' is ambiguous"), "\(ambiguous)")
            for candidate in candidates.split(separator: " ") { #expect(ambiguous.stderr.contains(candidate), "\(ambiguous)") }
            // A longer prefix of one candidate picks it.
            let one = String(candidates.split(separator: " ")[0])
            let picked = try binary.run(["show", String(one.prefix(13)), "--db", "s.sqlite"], in: dir.path)
            #expect(picked.status == 0 && picked.stdout.hasPrefix("tab \(one) "), "\(picked)")
            let none = try binary.run(["show", "ffff-ffff-ffff", "--db", "s.sqlite"], in: dir.path)
            #expect(none.status == 65 && none.stderr.contains("no tab ffffffff-ffff…"), "\(none)")
            for malformed in ["abc", "xyz1", "0123456789abcdef0123456789abcdef0"] {
                let result = try binary.run(["show", malformed, "--db", "s.sqlite"], in: dir.path)
                #expect(result.status == 64 && result.stderr.contains("is not a tab identifier"), "\(result)")
            }
            #expect(fileBytes(dir.file("s.sqlite")) == before)
        }
    }

    /// `restore` takes a closed entry's prefix as `closed` prints it, and `closed:ENTRY` as `search` prints it.
    @Test func restore_takesAClosedEntryPrefix_andSearchsForm() throws {
        try TemporaryDirectory.with { dir in
            #expect(try binary.run(["demo", "--db", "s.sqlite", "--browsers", "1", "--tabs", "5", "--seed", "3"], in: dir.path).status == 0)
            let closed = try binary.run(["closed", "--db", "s.sqlite"], in: dir.path)
            let entry = try #require(closed.stdout.split(separator: "\n").dropFirst().first?.split(separator: " ").first.map(String.init))
            #expect(entry.count == 8, "\(closed)")
            let search = try binary.run(["search", "--closed", "example", "--db", "s.sqlite"], in: dir.path)
            #expect(search.stdout.contains("\tclosed:\(entry)\t"), "\(search)")
            let restore = try binary.run(["restore", "closed:\(entry)", "--db", "s.sqlite"], in: dir.path)
            #expect(restore.status == 0 && restore.stdout.hasPrefix("Restored \(entry)-"), "\(restore)")
            let again = try binary.run(["restore", entry, "--db", "s.sqlite"], in: dir.path)
            #expect(again.status == 65 && again.stderr.contains("no recently closed entry \(entry)…"), "\(again)")
        }
    }

    /// `restore-snapshot` takes the beginning of a snapshot's name; two that share it are listed.
    @Test func restoreSnapshot_takesAUniqueBeginningOfTheName() throws {
        try TemporaryDirectory.with { dir in
            #expect(try binary.run(["demo", "--db", "s.sqlite", "--browsers", "1", "--tabs", "3", "--seed", "3"], in: dir.path).status == 0)
            #expect(try binary.run(["snapshot", "--db", "s.sqlite"], in: dir.path).status == 0)
            let names = try binary.run(["snapshots", "--db", "s.sqlite"], in: dir.path).stdout
                .split(separator: "\n").map { String($0.split(separator: " ")[0]) }
            #expect(names.count == 2, "\(names)")
            let ambiguous = try binary.run(["restore-snapshot", "20", "--db", "s.sqlite"], in: dir.path)
            #expect(ambiguous.status == 64 && names.allSatisfy(ambiguous.stderr.contains), "\(ambiguous)")
            let oldest = try #require(names.last)
            let restored = try binary.run(["restore-snapshot", String(oldest.dropLast(".sqlite".count)), "--db", "s.sqlite"], in: dir.path)
            #expect(restored.status == 0 && restored.stdout.hasPrefix("Restored snapshot \(oldest);"), "\(restored)")
        }
    }

    /// One value the `sqlite3` shell prints for `sql`, or `nil` when it prints nothing.
    private func sqlite(_ path: String, _ sql: String) throws -> String? {
        let result = try runTool([path, sql], in: FileManager.default.currentDirectoryPath, binary: "/usr/bin/sqlite3")
        let value = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }
}
