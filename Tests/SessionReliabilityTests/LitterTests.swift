import Foundation
import SessionStorage
import SessionTestSupport
import Testing

/// Another process holding `flock(LOCK_EX)` on a file, as a maker holds the lock
/// file of its temporary (`/usr/bin/flock` on a descriptor of a shell that then
/// becomes `sleep`): SIGKILLing it drops the lock, as a maker's death does.
final class LockHolder {
    private let process = Process()

    init(locking path: String) throws {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec 9>>\"$0\"; /usr/bin/flock 9 && echo locked && exec sleep 600", path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var printed = Data()
        while !String(decoding: printed, as: UTF8.self).contains("locked") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            printed.append(chunk)
        }
    }

    /// SIGKILLs the holder and waits for it: the lock is free.
    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { kill() }
    }
}

/// Temporaries left by makers that died are removed at the next open or by the
/// next command of the same kind, decided by each maker's `flock` on a lock file of
/// its own, never by a PID (issue 35, part 4).
@Suite struct LitterTests {
    /// A PID that runs no process: a child's, once it exited.
    private static func deadPID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    private func make(_ path: String, bytes: Int = 0) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x53, count: bytes))
    }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    private func storeWithTabs(at path: String) throws {
        let database = try SessionDatabase.open(atPath: path, configuration: CrashWorkload.configuration)
        try CrashWorkload(seed: 1).setUp(database)
        _ = try CrashWorkload(seed: 1).apply(step: 1, to: database)
        try database.close()
    }

    @Test func snapshotTemporaries_ofGoneMakers_goAtTheNextOpen_claimedOnesStayUntilTheirLockIsFree() throws {
        try TemporaryDirectory.with { directory in
            let path = directory.file("s.sqlite")
            try storeWithTabs(at: path)
            let folder = path + ".snapshots"
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            let dead = try Self.deadPID()
            let stem = folder + "/2026-01-01T00-00-00.000Z.sqlite"
            // Its name says PID 1, which runs; its lock file is free: litter, with its journal.
            let freeLock = "\(stem).1-AAAA.tmp"
            make(freeLock)
            make(freeLock + "-journal", bytes: 512)
            make(freeLock + ".lock")
            // An older version's 0-byte temporary, no lock file, a dead PID: litter.
            let oldDead = "\(stem).\(dead)-BBBB.tmp"
            make(oldDead)
            // An older version's, no lock file, a PID that runs: kept.
            let oldAlive = "\(stem).1-CCCC.tmp"
            make(oldAlive)
            // Claimed by a live maker though the PID in its name is dead: kept.
            let claimed = "\(stem).\(dead)-DDDD.tmp"
            make(claimed, bytes: 4096)
            let holder = try LockHolder(locking: claimed + ".lock")

            let database = try SessionDatabase.open(atPath: path, configuration: CrashWorkload.configuration)
            try database.close()  // waits for the removal the open started
            #expect(!exists(freeLock) && !exists(freeLock + "-journal") && !exists(freeLock + ".lock"))
            #expect(!exists(oldDead))
            #expect(exists(oldAlive))
            #expect(exists(claimed) && exists(claimed + ".lock"))

            // The maker dies: the next snapshot removes what it left.
            holder.kill()
            let again = try SessionDatabase.open(atPath: path, configuration: CrashWorkload.configuration)
            defer { try? again.close() }
            let snapshot = try #require(try again.takeSnapshot())
            #expect(!exists(claimed) && !exists(claimed + ".lock"))
            #expect(exists(snapshot.path))
            let left = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".tmp") }
            #expect(left == [(oldAlive as NSString).lastPathComponent], "\(left)")
        }
    }

    @Test func creationTemporaries_goAtTheNextOpen_onlyOnceTheirLockIsFree() throws {
        try TemporaryDirectory.with { directory in
            let path = directory.file("s.sqlite")
            try storeWithTabs(at: path)
            let free = path + ".creating-1-aaaa1111"
            for suffix in ["", "-wal", "-shm", ".lock"] { make(free + suffix) }
            let claimed = path + ".creating-\(try Self.deadPID())-bbbb2222"
            make(claimed)
            let holder = try LockHolder(locking: claimed + ".lock")
            try SessionDatabase.open(atPath: path, configuration: CrashWorkload.configuration).close()
            #expect(["", "-wal", "-shm", ".lock"].allSatisfy { !exists(free + $0) })
            #expect(exists(claimed))
            holder.kill()
            try SessionDatabase.open(atPath: path, configuration: CrashWorkload.configuration).close()
            #expect(!exists(claimed) && !exists(claimed + ".lock"))
        }
    }

    @Test func recoveringTemporaries_goAtTheNextRecoverOfTheSameOutput_onlyOnceTheirLockIsFree() throws {
        try TemporaryDirectory.with { directory in
            let source = directory.file("s.sqlite")
            try storeWithTabs(at: source)
            let output = directory.file("out.sqlite")
            let free = output + ".recovering-1-aaaa1111"
            for suffix in ["", "-wal", "-shm", ".lock"] { make(free + suffix, bytes: 100) }
            let claimed = output + ".recovering-\(try Self.deadPID())-bbbb2222"
            make(claimed)
            make(claimed + "-wal")
            let holder = try LockHolder(locking: claimed + ".lock")
            // Another output's temporary is not this recover's business.
            let other = directory.file("other.sqlite.recovering-\(try Self.deadPID())-cccc3333")
            make(other)

            // Work folders of recovers killed meanwhile, in the temporary folder: one whose lock is free, one held.
            let temporary = FileManager.default.temporaryDirectory.path
            let freeWork = temporary + "/sessionstore-recover-litter-\(UUID().uuidString)"
            let heldWork = temporary + "/sessionstore-recover-litter-\(UUID().uuidString)"
            for work in [freeWork, heldWork] {
                try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: false)
                make(work + "/source.sqlite", bytes: 100)
            }
            make(freeWork + ".lock")
            let workHolder = try LockHolder(locking: heldWork + ".lock")
            defer {
                workHolder.kill()
                try? FileManager.default.removeItem(atPath: heldWork)
                unlink(heldWork + ".lock")
            }

            let report = try SessionStoreFile.recover(from: source, to: output)
            #expect(!exists(freeWork) && !exists(freeWork + ".lock"))
            #expect(exists(heldWork + "/source.sqlite"))
            #expect(report.rowsKept.values.reduce(0, +) > 0)
            #expect(["", "-wal", "-shm", ".lock"].allSatisfy { !exists(free + $0) })
            #expect(exists(claimed) && exists(claimed + "-wal"))
            #expect(exists(other))

            holder.kill()
            // The next recover to the same output removes it, even though the output now exists and it is refused.
            #expect(throws: StorageError.self) { try SessionStoreFile.recover(from: source, to: output) }
            #expect(!exists(claimed) && !exists(claimed + "-wal") && !exists(claimed + ".lock"))
            let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(names.filter { $0.hasPrefix("out.sqlite.") }.isEmpty, "\(names)")
        }
    }
}
