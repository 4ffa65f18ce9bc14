import Foundation

extension SessionArchive {
    /// What an import wrote.
    public struct ImportCounts: Sendable, Hashable {
        /// Browsers, open or closed as windows (the archive and saved groups are not counted).
        public var browsers = 0
        /// Tabs of the browsers (a closed tab or group entry's own tabs are not counted).
        public var tabs = 0
        /// Recently closed entries.
        public var closedEntries = 0
        /// Archived tabs.
        public var archivedTabs = 0
        /// Saved groups.
        public var savedGroups = 0
        /// The saved groups' tabs.
        public var savedGroupTabs = 0

        /// No browser, tab or entry.
        public init() {}
    }

    /// A document's text, read a piece at a time, for
    /// ``SessionDatabase/importArchive(from:replacing:)``: either layout
    /// (a ``Layout/lines`` document is told by its first line), in memory
    /// proportional to its largest part, never to the document.
    public final class Reader {
        private let input: ByteInput

        /// A reader of the pieces `next` gives, `nil` at the end.
        public init(next: @escaping () throws -> Data?) {
            input = ByteInput(next: next)
        }

        /// A reader of a file or pipe, 1 MiB at a time.
        public convenience init(fileHandle: FileHandle) {
            self.init { try fileHandle.read(upToCount: 1 << 20) }
        }

        /// A reader of a document in memory.
        public convenience init(data: Data) {
            var given = false
            self.init {
                defer { given = true }
                return given ? nil : data
            }
        }

        /// Called with the number of bytes read so far, after each piece (for progress).
        public var progress: ((Int64) -> Void)? {
            get { input.progress }
            set { input.progress = newValue }
        }

        /// The bytes read so far.
        public var bytesRead: Int64 { input.bytesRead }

        /// Reads the document into `importer`, in its layout.
        func read(into importer: ArchiveImporter) throws {
            if try isLines() {
                var scanner = LinesScanner(input: input)
                try scanner.read(into: importer)
            } else {
                var scanner = DocumentScanner(input: input)
                try scanner.read(into: importer)
            }
        }

        /// Whether the document starts with a ``Layout/lines`` header line (``Layout/init(sniffing:)``).
        private func isLines() throws -> Bool {
            try input.skipWhitespace()
            // The first line, or its first 256 bytes.
            func sniffed() -> ArraySlice<UInt8> { input.buffer[input.position..<min(input.buffer.count, input.position + 256)] }
            while sniffed().count < 256, !sniffed().contains(UInt8(ascii: "\n")), try input.readMore() {}
            return Layout(sniffing: Data(sniffed())) == .lines
        }
    }
}
