import Foundation

/// One value of a salvaged record, in the storage classes of SQLite's record format.
///
/// The serial types of https://www.sqlite.org/fileformat2.html, "Record Format",
/// map as follows: 0 is `.null`; 1–6 (big-endian two's-complement integers of
/// 1, 2, 3, 4, 6 and 8 bytes) and the constants 8 and 9 are `.integer`; 7 (a
/// big-endian IEEE 754 double) is `.real`, except a NaN, which SQLite itself
/// reads as NULL and is therefore `.null`; even types ≥ 12 are `.blob`; odd
/// types ≥ 13 are `.text`, decoded in the database's text encoding (header
/// offset 56) and returned as `.blob` of the raw bytes when they are not valid
/// in that encoding.
enum SalvagedValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

/// A row read directly from a cell of a table b-tree leaf page.
///
/// `values` are the record's columns in declaration order, as stored: a column
/// that is an alias of the rowid (`INTEGER PRIMARY KEY`) is stored as NULL and
/// reads `.null` here (use `rowid`), and a column with REAL affinity may hold an
/// integral value stored as an integer (SQLite converts it on read; this reader
/// does not know the column's affinity). A record written before columns were
/// added with `ALTER TABLE ... ADD COLUMN` has fewer values than the table has columns.
struct SalvagedRecord: Hashable, Sendable {
    /// The 1-based number of the leaf page holding the record's cell.
    let page: Int
    /// The cell's integer key: the row's rowid.
    let rowid: Int64
    /// The record's values, in column order.
    let values: [SalvagedValue]
}

/// Reads the rows of a possibly damaged SQLite database file page by page,
/// from the documented file format, without SQLite.
///
/// A file is read a chunk at a time (through SQLite's handle, ``StoreFileReader``),
/// and records are handed over as they are read (``forEachRecord(_:)``): memory
/// stays bounded whatever the file's size.
///
/// This is the low-level half of salvage, as the shell's `.recover` builds its
/// lost-and-found: every page of the file is examined on its own (b-trees are
/// not walked, since any interior page may be damaged), and every table b-tree
/// leaf page yields the records of its cells. It implements, from
/// https://www.sqlite.org/fileformat2.html: "The Database Header" (page size,
/// reserved bytes, freelist, text encoding), "The Lock-Byte Page", "The Freelist",
/// "B-tree Pages" (page header, cell pointer array, table leaf cells, the local
/// payload size), "Cell Payload Overflow Pages", "Record Format" and, for
/// ``schemaRecords()``, "Storage Of The SQL Database Schema".
///
/// Every read is bounds-checked. A cell that cannot be read exactly (a pointer
/// outside the page, a varint running off the page, a payload or record header
/// that does not fit, a record whose header and body sizes disagree, an
/// overflow chain that loops, leaves the file, reaches page 1, a free page or
/// an all-zero page, or whose last page does not end the chain with 0) is
/// skipped and counted in ``skippedCells``; the scan goes on. Pages on the
/// freelist hold deleted rows and are not scanned.
///
/// Limitations: WITHOUT ROWID tables and indexes (index b-tree pages) are
/// ignored; only the main database file is read, so the caller must pass a
/// checkpointed file (or a copy with its WAL merged); damage that leaves a cell
/// well-formed (a changed byte inside a value, a garbage last overflow page that
/// happens to start with four zero bytes) cannot be detected, since the format
/// has no checksums; a record whose last overflow page is entirely zero bytes is
/// skipped, being indistinguishable from one whose page was zeroed. When the
/// header's geometry is unusable the freelist is unknown and the rows left on
/// free pages (deleted rows, unless `secure_delete` was on) are returned too.
struct SQLitePageScanner {
    /// Why a file cannot be scanned at all.
    enum ScanError: Error, Equatable, CustomStringConvertible {
        /// The file could not be read.
        case unreadable(path: String, reason: String)
        /// The file is shorter than the 100-byte database header.
        case tooShort(path: String, byteCount: Int)
        /// The header gives no usable page size and the file's length gives no fallback.
        case unusableHeader(path: String, reason: String)

        var description: String {
            switch self {
            case let .unreadable(path, reason):
                "cannot read the database file \(path): \(reason)"
            case let .tooShort(path, byteCount):
                "the database file \(path) is too short to scan (\(byteCount) bytes, a header needs 100)"
            case let .unusableHeader(path, reason):
                "the database file \(path) has an unusable header: \(reason)"
            }
        }
    }

    /// The text encoding of the database (header offset 56).
    enum TextEncoding: Sendable {
        case utf8, utf16le, utf16be
    }

    /// The file scanned.
    let path: String
    /// Whether the magic string is intact and the page geometry came from the header.
    ///
    /// When the magic string is damaged the geometry is still read from the
    /// header if it is plausible (and then so is the freelist); otherwise it is
    /// the 4096-byte fallback and the freelist is not read, so the records of
    /// free pages (deleted rows) may be returned.
    let headerIsIntact: Bool
    /// The number of table b-tree leaf pages (a scan of the whole file; ``forEachRecord(_:)`` counts them too).
    var leafPageCount: Int { forEachRecord { _ in }.leafPages }
    /// The number of cells on table leaf pages that could not be read exactly and
    /// were skipped (a scan of the whole file; ``forEachRecord(_:)`` counts them too).
    var skippedCells: Int { forEachRecord { _ in }.skippedCells }
    /// The first read of the file that failed, its bytes taken as zeros (a page that
    /// then reads as damaged); `nil` when every read succeeded so far.
    var readError: (any Error)? { image.bytes.readError }

    /// The page size in bytes: from the header, or 4096 when the header is unusable.
    var pageSize: Int { image.pageSize }
    /// Bytes reserved at the end of each page (header offset 20), 0 when the header is unusable.
    var reservedBytes: Int { image.pageSize - image.usableSize }
    /// The usable size of a page: the page size less the reserved bytes.
    var usableSize: Int { image.usableSize }
    /// The number of pages in the file, counting a trailing partial page.
    var pageCount: Int { image.pageCount }
    /// The encoding `.text` values are decoded from.
    var textEncoding: TextEncoding { image.textEncoding }
    /// The pages on the freelist (trunks and leaves), as far as it could be followed; not scanned.
    var freelistPages: Set<Int> { image.freelistPages }

    private let image: Image

    /// "SQLite format 3" and a NUL: the first 16 bytes of every database file.
    private static let magic: [UInt8] = Array("SQLite format 3\u{0}".utf8)

    /// Opens the file at `path` (through SQLite) and reads its header and freelist;
    /// its pages are read as they are scanned.
    ///
    /// - Throws: ``ScanError`` only when the file cannot be read, is shorter than
    ///   100 bytes, or neither its header nor its length gives a page size (the
    ///   fallback is 4096 when the length is a multiple of it). Damage anywhere
    ///   else never throws.
    init(path: String) throws {
        let bytes: FileBytes
        do {
            // Through SQLite's handle, never a descriptor of ours (StoreFileReader).
            bytes = try FileBytes(reader: StoreFileReader(path: path))
        } catch {
            throw ScanError.unreadable(path: path, reason: error.localizedDescription)
        }
        try self.init(image: bytes, path: path)
        if let error = bytes.readError { throw ScanError.unreadable(path: path, reason: error.localizedDescription) }
    }

    /// Scans the database file image `bytes` (as read from `path`, which only names it in errors).
    ///
    /// The header geometry is taken from "The Database Header": the page size at
    /// offset 16 (big-endian, 1 meaning 65536) and the reserved bytes at offset 20,
    /// when the magic string is intact; when it is damaged, from the same fields if
    /// they are valid, the payload fractions at 21–23 read 64, 32, 32 and the file's
    /// length is a multiple of the page size; otherwise 4096 bytes with none
    /// reserved if the length is a multiple of 4096.
    init(bytes: [UInt8], path: String = "(in memory)") throws {
        try self.init(image: FileBytes(bytes), path: path)
    }

    private init(image bytes: FileBytes, path: String) throws {
        guard bytes.count >= 100 else { throw ScanError.tooShort(path: path, byteCount: bytes.count) }
        let magicIsIntact = bytes[0..<16].elementsEqual(Self.magic)
        let rawPageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        let headerPageSize = rawPageSize == 1 ? 65536 : rawPageSize
        let headerReserved = Int(bytes[20])
        let geometryIsValid = headerPageSize >= 512 && headerPageSize <= 65536
            && headerPageSize & (headerPageSize - 1) == 0 && headerPageSize - headerReserved >= 480
        let fractionsAreValid = bytes[21] == 64 && bytes[22] == 32 && bytes[23] == 32
        let pageSize: Int
        let reservedBytes: Int
        let geometryFromHeader: Bool
        if magicIsIntact && geometryIsValid {
            (pageSize, reservedBytes, geometryFromHeader) = (headerPageSize, headerReserved, true)
        } else if geometryIsValid && fractionsAreValid && bytes.count % headerPageSize == 0 {
            (pageSize, reservedBytes, geometryFromHeader) = (headerPageSize, headerReserved, true)
        } else if bytes.count >= 4096 && bytes.count % 4096 == 0 {
            (pageSize, reservedBytes, geometryFromHeader) = (4096, 0, false)
        } else {
            let reason = magicIsIntact
                ? "the page size \(rawPageSize) with \(headerReserved) reserved bytes is invalid"
                : "the magic string is damaged"
            throw ScanError.unusableHeader(
                path: path,
                reason: "\(reason), and the length \(bytes.count) is not a multiple of the 4096-byte fallback page size")
        }
        self.path = path
        image = Image(
            bytes: bytes, pageSize: pageSize, usableSize: pageSize - reservedBytes, readsFreelist: geometryFromHeader)
        headerIsIntact = magicIsIntact && geometryFromHeader
    }

    /// Hands `body` the records of every table b-tree leaf page of the file, in
    /// page order then cell order, whichever table they belong to, as they are read.
    ///
    /// Records are not classified by table: a leaf page does not say which b-tree
    /// it belongs to, so the caller tells tables apart by the records' shape or,
    /// when the schema is intact, by ``leafPages(ofTableRootedAt:)``. The rows of
    /// `sqlite_schema` are included.
    ///
    /// - Returns: How many table leaf pages were scanned, and how many of their
    ///   cells could not be read exactly and were skipped.
    @discardableResult
    func forEachRecord(_ body: (SalvagedRecord) throws -> Void) rethrows -> (leafPages: Int, skippedCells: Int) {
        var leafPages = 0
        var skipped = 0
        for page in 1...image.pageCount where page != image.lockBytePage && !image.freelistPages.contains(page) {
            if try image.scanLeaf(page, skippedCells: &skipped, body) { leafPages += 1 }
        }
        return (leafPages, skipped)
    }

    /// The records of ``forEachRecord(_:)``, all in memory: for files of a known, small size.
    func tableRecords() -> [SalvagedRecord] {
        var records: [SalvagedRecord] = []
        forEachRecord { records.append($0) }
        return records
    }

    /// The rows of `sqlite_schema` (type, name, tbl_name, rootpage, sql) that
    /// can be read, in rowid order.
    ///
    /// The schema table is the table b-tree rooted at page 1 ("Storage Of The SQL
    /// Database Schema"): the records of page 1 when it is a leaf, otherwise of
    /// the leaves reached from it through intact interior pages. Empty when page
    /// 1 is damaged.
    func schemaRecords() -> [SalvagedRecord] {
        var records: [SalvagedRecord] = []
        var skipped = 0
        for page in leafPages(ofTableRootedAt: 1) where page != image.lockBytePage && !image.freelistPages.contains(page) {
            image.scanLeaf(page, skippedCells: &skipped) { records.append($0) }
        }
        return records
    }

    /// The leaf pages of the table b-tree rooted at page `root`, left to right,
    /// as far as its interior pages are intact.
    ///
    /// Follows the child pointers of table interior pages (type 0x05: the 4-byte
    /// left child of each cell and the right-most pointer at header offset 8, from
    /// "B-tree Pages"), never visiting a page twice. A child that is neither an
    /// interior nor a leaf table page is dropped with its subtree, so on a damaged
    /// file the result is the reachable part of the tree: use it to attribute the
    /// records of ``tableRecords()`` to the tables of ``schemaRecords()``.
    func leafPages(ofTableRootedAt root: Int) -> [Int] {
        image.leafPages(ofTableRootedAt: root)
    }
}

/// The bytes of a database file with the geometry they are read with, and the
/// readers of its pages and records.
private struct Image {
    let bytes: FileBytes
    let pageSize: Int
    let usableSize: Int
    let pageCount: Int
    let textEncoding: SQLitePageScanner.TextEncoding
    let freelistPages: Set<Int>

    /// The image of `bytes` in pages of `pageSize` bytes, `usableSize` of them
    /// usable; the freelist is read only when `readsFreelist`.
    init(bytes: FileBytes, pageSize: Int, usableSize: Int, readsFreelist: Bool) {
        self.bytes = bytes
        self.pageSize = pageSize
        self.usableSize = usableSize
        pageCount = (bytes.count + pageSize - 1) / pageSize
        switch Self.u32(bytes, 56) {
        case 2: textEncoding = .utf16le
        case 3: textEncoding = .utf16be
        default: textEncoding = .utf8
        }
        freelistPages = readsFreelist ? Self.freelist(bytes, pageSize: pageSize, usableSize: usableSize) : []
    }

    /// The leaf pages of the table b-tree rooted at `root` (see ``SQLitePageScanner/leafPages(ofTableRootedAt:)``).
    func leafPages(ofTableRootedAt root: Int) -> [Int] {
        var leaves: [Int] = []
        var visited = Set<Int>()
        var stack = [root]
        while let page = stack.popLast() {
            guard page >= 1, page <= pageCount, page != lockBytePage, visited.insert(page).inserted else { continue }
            let start = (page - 1) * pageSize
            let limit = min(start + usableSize, bytes.count)
            let header = start + (page == 1 ? 100 : 0)
            guard header + 8 <= limit else { continue }
            switch bytes[header] {
            case 0x0D:
                leaves.append(page)
            case 0x05:
                guard header + 12 <= limit else { continue }
                let cellCount = Self.u16(bytes, header + 3)
                let pointerArrayEnd = header + 12 + 2 * cellCount
                var children: [Int] = []
                for index in 0..<cellCount {
                    let pointer = header + 12 + 2 * index
                    guard pointer + 2 <= limit else { break }
                    let cell = start + Self.u16(bytes, pointer)
                    guard cell >= pointerArrayEnd, cell + 4 <= limit else { continue }
                    children.append(Self.u32(bytes, cell))
                }
                children.append(Self.u32(bytes, header + 8))
                stack.append(contentsOf: children.reversed())
            default:
                continue
            }
        }
        return leaves
    }

    // MARK: - Pages

    /// The page holding the bytes at offset 2^30, never used for data ("The Lock-Byte Page").
    var lockBytePage: Int { 1_073_741_824 / pageSize + 1 }

    /// Hands `body` the records of page `page` if it is a table b-tree leaf ("B-tree Pages").
    ///
    /// A leaf has type byte 0x0D at offset 0 of its b-tree header (offset 100 on
    /// page 1), a cell count at offset 3 and, after the 8-byte header, a cell
    /// pointer array of 2-byte offsets from the start of the page. A page whose
    /// pointer array would not fit in the usable area is not a leaf. Each cell
    /// pointing before the end of the pointer array, past `usableSize - 4`, or
    /// whose cell cannot be read, counts as skipped.
    ///
    /// - Returns: Whether the page is a table leaf.
    @discardableResult
    func scanLeaf(_ page: Int, skippedCells: inout Int, _ body: (SalvagedRecord) throws -> Void) rethrows -> Bool {
        let start = (page - 1) * pageSize
        let limit = min(start + usableSize, bytes.count)
        let header = start + (page == 1 ? 100 : 0)
        guard header + 8 <= limit, bytes[header] == 0x0D else { return false }
        let cellCount = Self.u16(bytes, header + 3)
        let pointerArrayEnd = header + 8 + 2 * cellCount
        guard pointerArrayEnd <= start + usableSize else { return false }
        for index in 0..<cellCount {
            let pointer = header + 8 + 2 * index
            guard pointer + 2 <= limit else {
                skippedCells += 1
                continue
            }
            let offset = Self.u16(bytes, pointer)
            let cell = start + offset
            guard cell >= pointerArrayEnd, offset <= usableSize - 4,
                  let record = readCell(at: cell, page: page, limit: limit)
            else {
                skippedCells += 1
                continue
            }
            try body(record)
        }
        return true
    }

    /// Reads the table leaf cell at `cell`, whose page's usable bytes end at `limit`.
    ///
    /// A table leaf cell is the payload size (varint), the rowid (varint), the
    /// local part of the payload and, when the payload spills, the 4-byte number
    /// of its first overflow page ("B-tree Pages", "Cell Payload Overflow Pages").
    private func readCell(at cell: Int, page: Int, limit: Int) -> SalvagedRecord? {
        guard let (payloadSize, sizeLength) = Self.varint(bytes, at: cell, limit: limit),
              let (rowid, rowidLength) = Self.varint(bytes, at: cell + sizeLength, limit: limit),
              payloadSize <= UInt64(pageCount) * UInt64(usableSize)
        else { return nil }
        let total = Int(payloadSize)
        let local = localPayloadSize(total)
        let localStart = cell + sizeLength + rowidLength
        guard localStart + local <= limit else { return nil }
        var payload = [UInt8]()
        payload.reserveCapacity(total)
        payload.append(contentsOf: bytes[localStart..<localStart + local])
        if local < total {
            guard localStart + local + 4 <= limit,
                  appendOverflow(from: Self.u32(bytes, localStart + local), count: total - local, to: &payload)
            else { return nil }
        }
        guard let values = decodeRecord(payload) else { return nil }
        return SalvagedRecord(page: page, rowid: Int64(bitPattern: rowid), values: values)
    }

    /// The bytes of a table leaf cell's payload of `payloadSize` bytes stored on the leaf itself.
    ///
    /// From "B-tree Pages", for table leaf cells: with U the usable size,
    /// X = U − 35, M = ((U − 12) × 32 / 255) − 23 and K = M + ((P − M) mod (U − 4)),
    /// a payload P ≤ X is stored whole; otherwise K bytes if K ≤ X, else M bytes.
    private func localPayloadSize(_ payloadSize: Int) -> Int {
        let maxLocal = usableSize - 35
        guard payloadSize > maxLocal else { return payloadSize }
        let minLocal = (usableSize - 12) * 32 / 255 - 23
        let surplus = minLocal + (payloadSize - minLocal) % (usableSize - 4)
        return surplus <= maxLocal ? surplus : minLocal
    }

    /// Appends `count` bytes from the overflow chain starting at page `first`.
    ///
    /// Each overflow page holds the next page's number in its first 4 bytes (0 on
    /// the last page), then up to `usableSize - 4` bytes of payload ("Cell Payload
    /// Overflow Pages"). Fails, rather than returning wrong content, when the chain
    /// loops, leaves the file, reaches page 1, the lock-byte page, a free page or an
    /// all-zero page (a zeroed page reads as an empty last page), or does not end
    /// with 0 on its last page.
    private func appendOverflow(from first: Int, count: Int, to payload: inout [UInt8]) -> Bool {
        var next = first
        var remaining = count
        var visited = Set<Int>()
        while remaining > 0 {
            guard next >= 2, next <= pageCount, next != lockBytePage, !freelistPages.contains(next),
                  visited.insert(next).inserted
            else { return false }
            let start = (next - 1) * pageSize
            let chunk = min(remaining, usableSize - 4)
            guard start + 4 + chunk <= bytes.count, !isZero(page: next) else { return false }
            let following = Self.u32(bytes, start)
            payload.append(contentsOf: bytes[start + 4..<start + 4 + chunk])
            remaining -= chunk
            if remaining == 0 && following != 0 { return false }
            next = following
        }
        return true
    }

    /// Whether every byte of page `page` present in the file is zero.
    private func isZero(page: Int) -> Bool {
        let start = (page - 1) * pageSize
        return bytes[start..<min(start + pageSize, bytes.count)].allSatisfy { $0 == 0 }
    }

    /// The freelist's trunk and leaf pages ("The Freelist"), as far as the chain is sound.
    ///
    /// The header holds the first trunk page at offset 32. A trunk page holds the
    /// next trunk (4 bytes), its leaf count L (4 bytes), then L leaf page numbers.
    /// The walk stops, without taking that trunk, at a trunk out of range or seen
    /// before, a count larger than a trunk holds, or a leaf out of range, so a
    /// damaged freelist cannot hide live pages it does not plausibly list.
    private static func freelist(_ bytes: FileBytes, pageSize: Int, usableSize: Int) -> Set<Int> {
        let pageCount = (bytes.count + pageSize - 1) / pageSize
        var pages = Set<Int>()
        var trunks = Set<Int>()
        var trunk = u32(bytes, 32)
        while trunk != 0 {
            guard trunk >= 2, trunk <= pageCount, trunks.insert(trunk).inserted else { break }
            let start = (trunk - 1) * pageSize
            guard start + 8 <= bytes.count else { break }
            let next = u32(bytes, start)
            let leafCount = u32(bytes, start + 4)
            guard next == 0 || (next >= 2 && next <= pageCount),
                  leafCount <= usableSize / 4 - 2, start + 8 + 4 * leafCount <= bytes.count
            else { break }
            let leaves = (0..<leafCount).map { u32(bytes, start + 8 + 4 * $0) }
            guard leaves.allSatisfy({ $0 >= 2 && $0 <= pageCount }) else { break }
            pages.insert(trunk)
            pages.formUnion(leaves)
            trunk = next
        }
        return pages
    }

    // MARK: - Records

    /// Decodes a record ("Record Format"): a header-size varint, one serial-type
    /// varint per column, then the values; nil unless the header fits the payload,
    /// no serial type is reserved (10, 11), and the values fill the payload exactly.
    private func decodeRecord(_ payload: [UInt8]) -> [SalvagedValue]? {
        guard let (headerSize, headerSizeLength) = Self.varint(payload, at: 0, limit: payload.count),
              headerSize >= UInt64(headerSizeLength), headerSize <= UInt64(payload.count)
        else { return nil }
        let headerEnd = Int(headerSize)
        var serialTypes: [UInt64] = []
        var offset = headerSizeLength
        while offset < headerEnd {
            guard let (serialType, length) = Self.varint(payload, at: offset, limit: headerEnd) else { return nil }
            serialTypes.append(serialType)
            offset += length
        }
        var body = headerEnd
        var values: [SalvagedValue] = []
        values.reserveCapacity(serialTypes.count)
        for serialType in serialTypes {
            guard let size = Self.contentSize(of: serialType), size <= UInt64(payload.count - body) else { return nil }
            let end = body + Int(size)
            values.append(value(of: serialType, payload[body..<end]))
            body = end
        }
        return body == payload.count ? values : nil
    }

    /// The size in bytes of a value of serial type `serialType`, nil for the reserved types 10 and 11.
    private static func contentSize(of serialType: UInt64) -> UInt64? {
        switch serialType {
        case 0, 8, 9: 0
        case 1, 2, 3, 4: serialType
        case 5: 6
        case 6, 7: 8
        case 10, 11: nil
        default: (serialType - 12) / 2
        }
    }

    /// The value of serial type `serialType` whose content is `content` (of the size the type implies).
    private func value(of serialType: UInt64, _ content: ArraySlice<UInt8>) -> SalvagedValue {
        switch serialType {
        case 0:
            return .null
        case 1...6:
            var integer = Int64(Int8(bitPattern: content.first ?? 0))
            for byte in content.dropFirst() { integer = integer << 8 | Int64(byte) }
            return .integer(integer)
        case 7:
            let bits = content.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let real = Double(bitPattern: bits)
            return real.isNaN ? .null : .real(real)
        case 8:
            return .integer(0)
        case 9:
            return .integer(1)
        default:
            return serialType % 2 == 0 ? .blob(Data(content)) : text(content)
        }
    }

    /// Text in the database's encoding, or `.blob` of the bytes when they are not valid in it.
    ///
    /// Decoding repairs invalid sequences with U+FFFD, so the bytes are valid
    /// exactly when the decoded string encodes back to them.
    private func text(_ content: ArraySlice<UInt8>) -> SalvagedValue {
        switch textEncoding {
        case .utf8:
            let string = String(decoding: content, as: UTF8.self)
            return string.utf8.elementsEqual(content) ? .text(string) : .blob(Data(content))
        case .utf16le, .utf16be:
            guard content.count % 2 == 0 else { return .blob(Data(content)) }
            let bytes = Array(content)
            let units = stride(from: 0, to: bytes.count, by: 2).map { index in
                textEncoding == .utf16le
                    ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
                    : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
            }
            let string = String(decoding: units, as: UTF16.self)
            return string.utf16.elementsEqual(units) ? .text(string) : .blob(Data(content))
        }
    }

    // MARK: - Integers

    /// Reads a varint at `offset` without reading at or past `limit` ("Record Format"):
    /// 1 to 9 bytes, big-endian, 7 bits from each of the first 8 bytes while their
    /// high bit is set, all 8 bits of a ninth.
    private static func varint(_ bytes: some ByteSource, at offset: Int, limit: Int) -> (UInt64, Int)? {
        let end = min(limit, bytes.count)
        var value: UInt64 = 0
        for index in 0..<9 {
            let position = offset + index
            guard position >= 0, position < end else { return nil }
            let byte = bytes[position]
            if index == 8 { return (value << 8 | UInt64(byte), 9) }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 { return (value, index + 1) }
        }
        return nil
    }

    /// The big-endian 2-byte unsigned integer at `offset` (the caller checks the bounds).
    private static func u16(_ bytes: some ByteSource, _ offset: Int) -> Int {
        Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    /// The big-endian 4-byte unsigned integer at `offset`, or 0 when it is not within `bytes`.
    private static func u32(_ bytes: some ByteSource, _ offset: Int) -> Int {
        guard offset >= 0, offset + 4 <= bytes.count else { return 0 }
        return Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }
}

/// Bytes read by offset: a record's payload, or a file's ``FileBytes``.
protocol ByteSource {
    var count: Int { get }
    subscript(_ offset: Int) -> UInt8 { get }
}

extension Array: ByteSource where Element == UInt8 {}

/// The bytes of a database file, read through SQLite's handle (``StoreFileReader``)
/// in chunks of 64 KiB, the last 64 of them kept (4 MiB), or held in memory.
///
/// A read that fails gives zeros (a page that then reads as damaged) and is kept
/// in ``readError``.
final class FileBytes: ByteSource {
    /// 64 KiB: a whole number of pages of every page size, so a page is never split.
    private static let chunkShift = 16
    private static let keptChunks = 64

    let count: Int
    private let reader: StoreFileReader?
    private let memory: [UInt8]
    private var chunks: [Int: [UInt8]] = [:]
    private var lastIndex = -1
    private var lastChunk: [UInt8] = []
    /// The first read that failed.
    private(set) var readError: (any Error)?

    /// Bytes held in memory.
    init(_ bytes: [UInt8]) {
        memory = bytes
        count = bytes.count
        reader = nil
    }

    /// The bytes of the file `reader` reads, read as they are needed.
    init(reader: StoreFileReader) throws {
        self.reader = reader
        memory = []
        count = try reader.size()
    }

    subscript(_ offset: Int) -> UInt8 {
        guard reader != nil else { return memory[offset] }
        let chunk = self.chunk(offset >> Self.chunkShift)
        return chunk[offset & (1 << Self.chunkShift - 1)]
    }

    /// The bytes in `range`, which lies within the file.
    subscript(_ range: Range<Int>) -> ArraySlice<UInt8> {
        guard reader != nil else { return memory[range] }
        guard !range.isEmpty else { return [] }
        let first = range.lowerBound >> Self.chunkShift
        let last = (range.upperBound - 1) >> Self.chunkShift
        if first == last {
            let base = first << Self.chunkShift
            return chunk(first)[(range.lowerBound - base)..<(range.upperBound - base)]
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count)
        for index in first...last {
            let base = index << Self.chunkShift
            let piece = chunk(index)
            bytes.append(contentsOf: piece[max(0, range.lowerBound - base)..<min(piece.count, range.upperBound - base)])
        }
        return bytes[...]
    }

    /// Chunk `index`, from the ones kept or read now (zeros where the read fails).
    private func chunk(_ index: Int) -> [UInt8] {
        if index == lastIndex { return lastChunk }
        if let kept = chunks[index] {
            (lastIndex, lastChunk) = (index, kept)
            return kept
        }
        let base = index << Self.chunkShift
        let length = max(0, min(1 << Self.chunkShift, count - base))
        var chunk: [UInt8]
        do {
            chunk = try reader?.read(count: length, at: base) ?? []
        } catch {
            readError = readError ?? error
            chunk = []
        }
        if chunk.count < length { chunk += repeatElement(0, count: length - chunk.count) }
        if chunks.count >= Self.keptChunks { chunks.removeAll(keepingCapacity: true) }
        chunks[index] = chunk
        (lastIndex, lastChunk) = (index, chunk)
        return chunk
    }
}
