// sessionstore-crash-writer: a stand-in app for the reliability tests.
//
// It writes to a session store and prints each mutation's sequence number on
// stdout only after the call returned (one line, written with write(2), so it
// is never held in a buffer a SIGKILL would lose). A failure prints one line on
// stderr and exits 75 for StorageError.busy, else 70.
//
//   crash  --db PATH --seed S --from N [--count C]
//       applies CrashWorkload steps N, N+1, … (forever, or C of them, then closes)
//   probe  --dir DIR --from I --to J
//       for each DIR/I.sqlite … DIR/J.sqlite (damaged copies), prints "I start", then
//       "I status:… check:… open:…" (ok, refused, or other: a non-StorageError)
//   create --db PATH
//       prints "start", creates (opens, migrating) a new store at PATH, prints "open", closes
//   writer --db PATH --name X --count C
//       inserts C tabs into the first CrashWorkload browser at seeded indexes,
//       each with one navigation; prints "i TAB" after tab i and its navigation are
//       stored, and "busy SECONDS" for a call that gave up on the lock (then retried)
//   app    --db PATH […]
//       a writer as an app would be written (AppMode.swift says how it is driven)
import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport

func say(_ line: String, to descriptor: Int32 = STDOUT_FILENO) {
    let bytes = Array((line + "\n").utf8)
    var written = 0
    while written < bytes.count {
        let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if result <= 0 { exit(71) }
        written += result
    }
}

func fail(_ error: any Error) -> Never {
    say("sessionstore-crash-writer: \(error)", to: STDERR_FILENO)
    if case .busy = error as? StorageError { exit(75) }
    exit(70)
}

/// Runs `body`; a StorageError.busy (nothing was written) prints "busy SECONDS" (how long the
/// call waited before giving up) and is retried, as an app would, at most 20 times.
func retryingBusy(_ body: () throws -> Void) throws {
    for attempt in 1...20 {
        let started = Date()
        do {
            return try body()
        } catch let error as StorageError {
            guard case .busy = error, attempt < 20 else { throw error }
            say("busy \(Date().timeIntervalSince(started))")
        }
    }
}

var options: [String: String] = [:]
let arguments = Array(CommandLine.arguments.dropFirst())
guard let mode = arguments.first else {
    say("usage: sessionstore-crash-writer crash|writer --db PATH …", to: STDERR_FILENO)
    exit(64)
}
var cursor = 1
while cursor + 1 < arguments.count {
    options[String(arguments[cursor].drop { $0 == "-" })] = arguments[cursor + 1]
    cursor += 2
}
if mode == "probe" {
    let directory = options["dir"] ?? "."
    for index in Int(options["from"] ?? "0")!...Int(options["to"] ?? "0")! {
        let path = "\(directory)/\(index).sqlite"
        say("\(index) start")
        func attempt(_ body: () throws -> Void) -> String {
            do {
                try body()
                return "ok"
            } catch is StorageError {
                return "refused"
            } catch {
                return "other(\(error))"
            }
        }
        let status = attempt { _ = try SessionStoreFile.status(atPath: path) }
        let check = attempt { _ = try SessionStoreFile.check(atPath: path) }
        let open = attempt {
            let database = try SessionDatabase.openReadOnly(atPath: path)
            defer { try? database.close() }
            _ = try database.exportArchive()
        }
        say("\(index) status:\(status) check:\(check) open:\(open)")
    }
    exit(0)
}
if mode == "app" {
    guard let path = options["db"] else { exit(64) }
    await runApp(path: path, options: options)
    exit(0)
}
guard let path = options["db"] else { exit(64) }

do {
    if mode == "create" { say("start") }
    let database = try SessionDatabase.open(atPath: path, configuration: CrashWorkload.configuration)
    say("open")
    switch mode {
    case "create":
        break
    case "crash":
        let workload = CrashWorkload(seed: UInt64(options["seed"] ?? "1") ?? 1)
        var step = Int(options["from"] ?? "1") ?? 1
        let last = options["count"].flatMap(Int.init).map { step + $0 - 1 } ?? Int.max
        while step <= last {
            _ = try workload.apply(step: step, to: database)
            say("\(step)")
            step += 1
        }
    case "writer":
        let name = options["name"] ?? "w"
        let count = Int(options["count"] ?? "100") ?? 100
        let tabs = SQLiteWebStateListRepository(database: database)
        let histories = SQLiteNavigationHistoryRepository(database: database)
        let browser = CrashWorkload.browserIDs[0]
        var rng = SplitMix64(seed: name.utf8.reduce(0xC0FFEE) { $0 &* 31 &+ UInt64($1) })
        for index in 0..<count {
            let tab = WebStateID(rawValue: UUID())
            let activate = Bool.random(using: &rng)
            let at = Int.random(in: 0...1_000, using: &rng)
            try retryingBusy {
                try tabs.update(browser) { list in
                    _ = try list.insert(WebState(id: tab), params: .atIndex(min(at, list.count)).activate(activate))
                }
            }
            try retryingBusy {
                try histories.commit(NavigationItem(url: "https://\(name).example/\(index)", title: "\(name) \(index)"), in: tab)
            }
            say("\(index) \(tab)")
        }
    default:
        exit(64)
    }
    try database.close()
} catch {
    fail(error)
}
