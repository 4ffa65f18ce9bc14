import ArgumentParser
import Foundation

/// Checks on paths given on the command line other than the store's own
/// (whose limits `StorageError.pathTooLong` reports): a document to import,
/// an output file, a snapshot name.
enum PathArgument {
    /// The longest file name most file systems take, in bytes (`NAME_MAX`).
    static let maximumNameLength = 255
    /// The longest path the system resolves, in bytes (`PATH_MAX`).
    static let maximumPathLength = 4096

    /// Refuses an empty path, and one the file system cannot hold, as a usage error (64).
    static func validate(_ path: String, as what: String) throws {
        guard !path.isEmpty else { throw ValidationError("\(what) needs a path.") }
        if path.utf8.count >= maximumPathLength
            || path.split(separator: "/").contains(where: { $0.utf8.count > maximumNameLength })
        {
            throw ValidationError(
                "\(what): the path is too long (a name over \(maximumNameLength) bytes, or \(maximumPathLength) bytes in all).")
        }
    }
}
