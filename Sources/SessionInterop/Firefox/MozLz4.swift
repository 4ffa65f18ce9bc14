import CLZ4
import Foundation

/// Firefox's mozLz4 container: the `.jsonlz4` and `.baklz4` files of its
/// session store.
///
/// The layout, from Firefox's `toolkit/components/lz4/lz4.sys.mjs`: the eight
/// magic bytes `mozLz40\0`, the decompressed size as a little-endian 32-bit
/// integer, then one raw LZ4 block. Decompression goes through liblz4's
/// `LZ4_decompress_safe`, which never writes past the buffer it is given; the
/// header is checked first, so a lying size field is refused before anything
/// is allocated for it.
public enum MozLz4 {
    /// The eight bytes every mozLz4 file starts with.
    public static let magic: [UInt8] = Array("mozLz40\0".utf8)

    /// The magic bytes and the size field.
    public static let headerSize = 12

    /// The largest decompressed size accepted: 256 MiB, far above any real session
    /// (Firefox itself refuses sessions past a few tens of MiB), and small enough that
    /// decoding the JSON stays within a tool's memory.
    public static let maximumDecompressedSize = 1 << 28

    /// The most bytes one compressed byte can stand for.
    ///
    /// An LZ4 match length grows by 255 per extra byte, so no block expands by
    /// much more than 255:1; a size field beyond that (plus a small allowance
    /// for a block's fixed parts) cannot be true and marks a decompression bomb.
    public static let maximumExpansionRatio = 255

    /// Why a mozLz4 file cannot be decompressed.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// What is wrong, in one line.
        public var reason: String

        /// Creates a failure.
        public init(reason: String) {
            self.reason = reason
        }

        /// The reason.
        public var description: String { reason }
    }

    /// Whether `data` starts with the mozLz4 magic bytes.
    public static func hasMagic(_ data: Data) -> Bool {
        data.count >= magic.count && data.prefix(magic.count).elementsEqual(magic)
    }

    /// The decompressed content of a mozLz4 file.
    ///
    /// Refuses, without allocating the stated size: a file shorter than the
    /// header, wrong magic bytes, a size field of 0, over
    /// ``maximumDecompressedSize``, or more than the block could expand to; then
    /// refuses a block that does not decompress to exactly the stated size.
    ///
    /// - Throws: ``Failure`` with a one-line reason.
    public static func decompress(_ data: Data) throws(Failure) -> Data {
        guard data.count >= headerSize else {
            throw Failure(reason: "\(data.count) bytes is shorter than the \(headerSize)-byte mozLz4 header")
        }
        guard hasMagic(data) else { throw Failure(reason: "not a mozLz4 file (wrong magic bytes)") }
        let size = data.dropFirst(magic.count).prefix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
        let blockSize = data.count - headerSize
        guard size > 0 else { throw Failure(reason: "the mozLz4 size field is 0") }
        guard size <= maximumDecompressedSize else {
            throw Failure(reason: "the mozLz4 size field says \(size) bytes, over the limit of \(maximumDecompressedSize)")
        }
        guard blockSize <= Int(Int32.max), size <= blockSize * maximumExpansionRatio + 64 else {
            throw Failure(reason: "the mozLz4 size field says \(size) bytes, more than a \(blockSize)-byte LZ4 block can hold")
        }
        var output = Data(count: size)
        let written = output.withUnsafeMutableBytes { target in
            data.withUnsafeBytes { source in
                LZ4_decompress_safe(
                    source.baseAddress!.advanced(by: headerSize).assumingMemoryBound(to: CChar.self),
                    target.baseAddress!.assumingMemoryBound(to: CChar.self),
                    Int32(blockSize), Int32(size))
            }
        }
        guard written >= 0 else {
            throw Failure(reason: "the LZ4 block is damaged, truncated or larger than the stated \(size) bytes")
        }
        guard Int(written) == size else {
            throw Failure(reason: "the LZ4 block holds \(written) bytes, not the stated \(size)")
        }
        return output
    }
}
