/// Lowercase hexadecimal encoding and the shape checks of ids.
enum Hex {
    /// `bytes` as lowercase hex digits.
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `string` is exactly 32 lowercase hex digits (an account or record id).
    static func isID32(_ string: String) -> Bool {
        string.utf8.count == 32 && string.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
