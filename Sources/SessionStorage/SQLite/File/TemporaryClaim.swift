import Foundation
import SessionModel

/// A maker's hold on a temporary file (or folder) it makes beside a store: an
/// exclusive `flock` on a small lock file of its own, `TEMPORARY.lock`, taken
/// before the temporary exists and given up only once it is gone.
///
/// Whoever finds the temporary later (the next open of the store, the next
/// snapshot, the next `recover` to the same output) takes it for litter only when
/// it can take that lock itself (``removeLitter(in:where:makerPID:)``). The kernel
/// drops the lock when its holder dies, whatever killed it, so the answer holds
/// where a PID's liveness does not: a PID reused since, or one from another PID
/// namespace. The lock file is never a SQLite file: closing a descriptor of ours
/// on one would drop SQLite's POSIX locks (see ``StoreFileReader``).
///
/// A `flock` belongs to the open file description: the claim keeps its one
/// descriptor (close-on-exec) open until ``release()``, and closing it is what
/// releases the lock. On a network file system that emulates `flock` with POSIX
/// locks, two descriptors of one process share the lock, so a process never
/// judges a temporary it claimed itself (a table of its own claims says which).
final class TemporaryClaim: Sendable {
    /// The temporary claimed.
    let path: String
    private let descriptor: Int32
    private let released = Protected(false)

    /// The paths this process holds a claim on.
    private static let held = Protected(Set<String>())
    /// What follows a temporary's name in the names of the files that go with it.
    private static let companionSuffixes = [lockSuffix, "-journal", "-wal", "-shm"]
    private static let lockSuffix = ".lock"

    /// The lock file of the temporary at `path`.
    static func lockPath(of path: String) -> String { path + lockSuffix }

    /// Claims `path`, before anything is made there: creates and locks its lock file (mode 0600).
    ///
    /// - Throws: ``StorageError/directoryNotFound(path:)`` or
    ///   ``StorageError/readOnly(path:reason:)`` when the lock file cannot be made.
    init(on path: String) throws {
        self.path = path
        let lockPath = Self.lockPath(of: path)
        while true {
            let descriptor = open(lockPath, O_CREAT | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                let code = errno
                if code == ENOENT { throw StorageError.directoryNotFound(path: path) }
                throw StorageError.readOnly(path: path, reason: String(cString: strerror(code)))
            }
            guard flock(descriptor, LOCK_EX) == 0 else {
                let code = errno
                close(descriptor)
                throw StorageError.readOnly(path: path, reason: String(cString: strerror(code)))
            }
            // Someone sweeping may have found the file unlocked between open and flock and
            // removed it: the claim holds only on the file that is still at the path.
            var locked = stat(), named = stat()
            if fstat(descriptor, &locked) == 0, lstat(lockPath, &named) == 0,
               locked.st_dev == named.st_dev, locked.st_ino == named.st_ino
            {
                self.descriptor = descriptor
                break
            }
            close(descriptor)
        }
        Self.held.withLock { _ = $0.insert(path) }
    }

    deinit { release() }

    /// Gives the claim up once the temporary is gone (moved into place or
    /// removed): removes the lock file, then closes the descriptor, which unlocks it.
    func release() {
        guard released.withLock({ released in
            defer { released = true }
            return !released
        }) else { return }
        unlink(Self.lockPath(of: path))
        close(descriptor)
        _ = Self.held.withLock { $0.remove(path) }
    }

    /// Makes a new folder (mode 0700) in the system's temporary folder, named
    /// `prefix` and a UUID, claimed while it exists; removes first the folders of
    /// that prefix whose makers are gone. ``removeAndRelease()`` removes it.
    ///
    /// - Throws: ``StorageError/readOnly(path:reason:)`` when it cannot be made.
    static func privateFolder(prefix: String) throws -> TemporaryClaim {
        var temporary = NSTemporaryDirectory()
        while temporary.count > 1, temporary.hasSuffix("/") { temporary.removeLast() }
        // A folder without a lock file (an older version's) names no maker: it is kept.
        removeLitter(in: temporary, where: { $0.hasPrefix(prefix) }) { _ in "" }
        let claim = try TemporaryClaim(on: temporary + "/" + prefix + UUID().uuidString)
        do {
            try FileManager.default.createDirectory(
                atPath: claim.path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            claim.release()
            throw StorageError.readOnly(path: claim.path, reason: "the temporary folder cannot be made")
        }
        return claim
    }

    /// Removes the claimed file or folder, then gives the claim up.
    func removeAndRelease() {
        try? FileManager.default.removeItem(atPath: path)
        release()
    }

    /// Removes, in `directory`, each temporary whose name `isTemporary` accepts and
    /// whose maker is gone, with its `-journal`, `-wal`, `-shm` and lock file;
    /// returns the temporaries removed (their names).
    ///
    /// A temporary whose lock file this call can lock (`LOCK_EX | LOCK_NB`) is
    /// litter, and so is a lock file left alone. One with no lock file was made
    /// by a version before claims: it is litter when the process `makerPID`
    /// reads from its name no longer runs (``DatabaseFile/makerIsGone(_:)``).
    /// Anything else (locked, not ours to open) is kept. Best effort: a file
    /// that cannot be removed stays.
    @discardableResult
    static func removeLitter(
        in directory: String, where isTemporary: (String) -> Bool, makerPID: (String) -> Substring
    ) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var temporaries: Set<String> = []
        for name in names {
            let stem = companionSuffixes.first { name.hasSuffix($0) }.map { String(name.dropLast($0.count)) } ?? name
            if isTemporary(stem) { temporaries.insert(stem) }
        }
        let mine = held.withLock { $0 }
        return temporaries.sorted().filter { name in
            let path = directory + "/" + name
            guard !mine.contains(path) else { return false }
            return removeIfLitter(path, makerPID: makerPID(name))
        }
    }

    /// Removes the temporary at `path` and what goes with it if its maker is gone.
    private static func removeIfLitter(_ path: String, makerPID: Substring) -> Bool {
        let lockPath = lockPath(of: path)
        let descriptor = open(lockPath, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            guard errno == ENOENT, DatabaseFile.makerIsGone(makerPID) else { return false }
            removeWithCompanions(path)
            return true
        }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return false }
        // Locked by this call: the maker is gone. Its lock file goes last, while still locked.
        removeWithCompanions(path)
        unlink(lockPath)
        return true
    }

    private static func removeWithCompanions(_ path: String) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            try? FileManager.default.removeItem(atPath: path)
        } else {
            unlink(path)
        }
        for suffix in companionSuffixes where suffix != lockSuffix { unlink(path + suffix) }
    }
}
