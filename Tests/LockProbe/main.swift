// sessionstore-lock-probe: looks, from another process, at the POSIX locks a
// test process holds on its stores.
//
// A process cannot see its own locks with F_GETLK, and a descriptor it opened
// to look would drop them when closed: only another process can tell whether
// a store's connections still hold theirs. For each line "PID PATH" on stdin it
// prints one line:
//   ok                       PID holds a lock on the store's shared range and on its -shm's DMS byte
//   lost database|shm|both   what PID no longer holds a lock on
// The probe's own descriptors never hold a lock, so closing them changes nothing.
import Foundation

/// SQLite's unix VFS: a SHARED lock is a read lock on 510 bytes from PENDING_BYTE + 2
/// (0x40000002); every WAL connection keeps one while it is open.
let sharedFirst: Int64 = 0x4000_0002
let sharedSize: Int64 = 510
/// The -shm's "dead man switch" byte (120 + 8): each connection with the WAL index open holds a read lock on it.
let deadManSwitch: Int64 = 128

/// Whether process `pid` holds a lock on `length` bytes of `path` from `start`.
func holds(_ pid: Int32, _ path: String, start: Int64, length: Int64) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var lock = flock()
    lock.l_type = Int16(F_WRLCK)
    lock.l_whence = Int16(SEEK_SET)
    lock.l_start = off_t(start)
    lock.l_len = off_t(length)
    guard fcntl(descriptor, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) else { return false }
    if lock.l_pid == pid { return true }
    // F_GETLK names one holder; another process may be the one it found. The kernel's table lists them all.
    var info = stat()
    guard fstat(descriptor, &info) == 0, let table = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
    else { return false }
    return table.split(separator: "\n").contains { line in
        let fields = line.split(separator: " ").filter { $0 != "->" }
        guard fields.count >= 8, fields[1] == "POSIX", Int32(fields[4]) == pid,
              fields[5].split(separator: ":").last.flatMap({ UInt64($0) }) == UInt64(info.st_ino),
              let first = Int64(fields[6])
        else { return false }
        let last = fields[7] == "EOF" ? Int64.max : Int64(fields[7]) ?? -1
        return first <= start && start <= last
    }
}

/// Prints `line` with one write(2): never held in a buffer.
func answer(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

while let line = readLine() {
    let parts = line.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, let pid = Int32(parts[0]) else {
        answer("error: expected PID PATH")
        continue
    }
    let path = String(parts[1])
    let database = holds(pid, path, start: sharedFirst, length: sharedSize)
    let shm = holds(pid, path + "-shm", start: deadManSwitch, length: 1)
    switch (database, shm) {
    case (true, true): answer("ok")
    case (false, true): answer("lost database")
    case (true, false): answer("lost shm")
    case (false, false): answer("lost both")
    }
}
