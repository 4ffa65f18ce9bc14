import Foundation
import SessionModel

/// Test instrumentation for the rule that nothing in this package drops the
/// POSIX locks its own connections hold (see ``StoreFileReader``).
///
/// With no ``witness`` installed (every app and command), each hook is one load
/// of a global and a branch. The tests install one: after each public call on a
/// store, or on a path that names a store this process has open, it asks
/// another process whether it still sees this process's locks on the file and
/// its `-shm`. A process cannot see its own locks with `F_GETLK`, and opening a
/// descriptor to look would drop them: only another process can tell.
package enum LockAudit {
    /// Checks that another process sees this process's locks on the store at
    /// `path`; `call` names the public call just made, for the report.
    package typealias Witness = @Sendable (_ path: String, _ call: String) -> Void

    /// The installed witness; `nil` outside the tests. Set it before any store opens.
    nonisolated(unsafe) package static var witness: Witness?

    /// The on-disk stores this process has open, while a witness is installed.
    private static let open = Protected<[ObjectIdentifier: (path: String, file: FileIdentity?)]>([:])

    /// Records a store that has just opened.
    static func opened(_ store: SessionDatabase) {
        guard witness != nil, let path = store.path else { return }
        open.withLock { $0[ObjectIdentifier(store)] = (path, store.fileIdentity) }
    }

    /// Forgets a store about to close; waits for a check of it in progress.
    static func closing(_ store: SessionDatabase) {
        guard witness != nil else { return }
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(store)) }
    }

    /// After public call `call` on `store`.
    @inline(__always)
    static func after(_ call: @autoclosure () -> String, on store: SessionDatabase) {
        guard let witness else { return }
        open.withLock { stores in
            // A file deleted or replaced since it opened (tests do so on purpose) has no locks of ours.
            guard let entry = stores[ObjectIdentifier(store)], FileIdentity(path: entry.path) == entry.file else { return }
            witness(entry.path, call())
        }
    }

    /// After public call `call` on the file at `path`: checks each open store of this process that is that file.
    @inline(__always)
    static func after(_ call: @autoclosure () -> String, onFileAt path: String) {
        guard let witness else { return }
        let file = FileIdentity(path: path)
        open.withLock { stores in
            for entry in stores.values where file != nil && entry.file == file && FileIdentity(path: entry.path) == file {
                witness(entry.path, call())
            }
        }
    }
}
