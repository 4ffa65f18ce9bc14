import Foundation
import SessionModel
import SessionStorage

/// Checks, after every public call on a store, that another process still sees
/// this process's locks on the store and its `-shm` (issue 29's lock check).
///
/// Installed when the environment has `SESSIONSTORE_LOCK_WITNESS=1` (CI runs the
/// storage and mediator suites so), by the first ``TemporaryDirectory`` or
/// ``TemporaryStore``; it starts one `sessionstore-lock-probe` process for the
/// whole run and asks it, over a pipe, about each store the call touched. A lost
/// lock stops the run at once, naming the call and the store: it means that
/// another process closing the file would delete the WAL under this one.
package enum LockWitness {
    private static let installed = Protected(false)
    private static let probe = Protected<(input: Int32, output: Int32, checks: Int)?>(nil)

    /// Installs the witness if the environment asks for it; does nothing the second time.
    package static func installIfAsked() {
        guard ProcessInfo.processInfo.environment["SESSIONSTORE_LOCK_WITNESS"] == "1" else { return }
        installed.withLock { done in
            guard !done else { return }
            done = true
            let process = Process()
            process.executableURL = URL(fileURLWithPath: BuiltBinary.path("sessionstore-lock-probe"))
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            do {
                try process.run()
            } catch {
                fatalError("lock witness: cannot start sessionstore-lock-probe: \(error)")
            }
            probe.withLock {
                $0 = (input.fileHandleForWriting.fileDescriptor, output.fileHandleForReading.fileDescriptor, 0)
            }
            // The pipes' handles must outlive the run: keep them.
            handles.withLock { $0 = [input, output] }
            atexit {
                let checks = LockWitness.probe.withLock { $0?.checks ?? 0 }
                FileHandle.standardError.write(Data(
                    "lock witness: \(checks) checks after public calls, each saw this process's locks\n".utf8))
            }
            LockAudit.witness = { path, call in check(path, after: call) }
        }
    }

    private static let handles = Protected<[Pipe]>([])

    private static func check(_ path: String, after call: String) {
        let answer = probe.withLock { state -> String in
            guard let (input, output, _) = state else { return "ok" }
            state?.checks += 1
            let request = Array("\(getpid()) \(path)\n".utf8)
            guard request.withUnsafeBytes({ write(input, $0.baseAddress, $0.count) }) == request.count else {
                return "the probe is gone"
            }
            var line: [UInt8] = []
            var byte: UInt8 = 0
            while read(output, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
            return String(decoding: line, as: UTF8.self)
        }
        guard answer == "ok" else {
            fatalError("lock witness: after \(call), another process no longer sees this process's locks on \(path) (\(answer))")
        }
    }
}
