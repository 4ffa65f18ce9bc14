import Foundation

/// One command of an SNSS file: its id and payload, and where its frame starts.
struct SNSSCommand: Sendable {
    /// The command id (its meaning depends on the kind of file).
    var id: UInt8
    /// The payload, without the id byte.
    var payload: ArraySlice<UInt8>
    /// The byte offset of the command's frame in the file, for notes.
    var offset: Int
}

/// The header and command frames of one of Chromium's session command logs
/// (`Session_*` or `Tabs_*`).
///
/// Layout, from Chromium's `components/sessions/core/command_storage_backend.cc`
/// (`FileHeader`, `SessionFileReader::ReadCommand`):
/// - a header of two little-endian `int32`: the signature `0x53534E53`
///   (the bytes `SNSS`) and the version, `kFileVersionWithMarker` = 3 (versions
///   1, 2 and 4 are no longer read by Chromium; 5 is the encrypted format of
///   `Sessions_Encrypted/`);
/// - then frames of `uint16 size`, `uint8 id`, `size - 1` payload bytes, to the
///   end of the file. A frame of size 0 or one the file ends inside stops
///   reading; the commands before it are kept.
/// - id 255 (`kInitialStateMarkerCommandId`) marks the end of the initial state
///   and carries no data: it is dropped here, as Chromium's reader drops it.
struct SNSSFile: Sendable {
    /// The signature's four bytes.
    static let signature: [UInt8] = Array("SNSS".utf8)
    /// The only version Chromium writes and reads in `Sessions/`.
    static let supportedVersion: Int32 = 3
    /// The id of the initial-state marker.
    static let markerCommandID: UInt8 = 255

    /// The header's version.
    var version: Int32
    /// The commands, in file order, without markers.
    var commands: [SNSSCommand]
    /// Set when reading stopped before the end of the file: why, in one line.
    var stoppedEarly: String?

    /// Reads the frames of `bytes`; `path` names the file in errors.
    ///
    /// - Throws: ``BrowserFileError`` for an empty file, a file too short for
    ///   the header, a wrong signature or an unsupported version.
    init(bytes: [UInt8], path: String) throws(BrowserFileError) {
        guard !bytes.isEmpty else { throw BrowserFileError(path: path, reason: "the file is empty") }
        guard bytes.count >= 8 else {
            throw BrowserFileError(path: path, reason: "\(bytes.count) bytes is too short for an SNSS header (8 bytes)")
        }
        guard Array(bytes[0..<4]) == Self.signature else {
            let start = bytes[0..<4].map { String(format: "%02x", $0) }.joined(separator: " ")
            throw BrowserFileError(path: path, reason: "not a Chromium session file: it starts with \(start), not \"SNSS\"")
        }
        var header = FixedPayload(bytes[4..<8])
        let version = header.int32(at: 0) ?? 0
        guard version == Self.supportedVersion else {
            let hint = version == 5 ? " (the encrypted format of Sessions_Encrypted/; read Sessions/ instead)" : ""
            throw BrowserFileError(
                path: path, reason: "SNSS version \(version) is not supported, only version \(Self.supportedVersion)\(hint)")
        }
        self.version = version
        commands = []
        var offset = 8
        while offset < bytes.count {
            guard bytes.count - offset >= 2 else {
                stoppedEarly = "the file ends in the middle of a command frame at byte \(offset) (1 of its 2 size bytes)"
                break
            }
            header = FixedPayload(bytes[offset..<offset + 2])
            let size = Int(header.uint16(at: 0) ?? 0)
            guard size > 0 else {
                stoppedEarly = "an empty command frame at byte \(offset) stops the file"
                break
            }
            let available = bytes.count - offset - 2
            guard size <= available else {
                stoppedEarly = "the file ends in the middle of a command at byte \(offset) (\(available) of its \(size) bytes)"
                break
            }
            let id = bytes[offset + 2]
            if id != Self.markerCommandID {
                commands.append(SNSSCommand(id: id, payload: bytes[(offset + 3)..<(offset + 2 + size)], offset: offset))
            }
            offset += 2 + size
        }
    }
}
