import Foundation

/// A key that appears twice in one JSON object. JSON parsers disagree on which
/// one counts (Foundation's decoder takes one, Python's `json` the last), so a
/// document holding one is refused rather than read one way of several.
struct DuplicateKey: Equatable {
    /// The key, decoded.
    var key: String
    /// The offset of its second appearance's opening quote in the bytes searched.
    var offset: Int
    /// The JSON path of the key (`$.browsers[0].tabs[2].title`), from the root given.
    var path: String

    /// The first key that appears twice in an object of `bytes`, a JSON value
    /// (whose syntax the decoder checks: here only strings and brackets are followed);
    /// paths start at `root`.
    static func first(in bytes: some Collection<UInt8>, under root: String = "$") -> DuplicateKey? {
        bytes.withContiguousStorageIfAvailable { search($0, root: root) }
            ?? Array(bytes).withUnsafeBufferPointer { search($0, root: root) }
    }

    /// An open object or array: an object's keys so far, an array's element index.
    private struct Frame {
        var isObject: Bool
        var keys: Set<String> = []
        var last = ""
        var expectingKey: Bool
        var index = 0
    }

    private static func search(_ bytes: UnsafeBufferPointer<UInt8>, root: String) -> DuplicateKey? {
        var stack: [Frame] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let start = index
                var escaped = false
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "\\") {
                        escaped = true
                        index += 1
                    }
                    index += 1
                }
                guard let top = stack.indices.last, stack[top].isObject, stack[top].expectingKey else { break }
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<min(index + 1, bytes.count)])
                let key = escaped
                    ? (try? JSONDecoder().decode(String.self, from: Data(raw))) ?? String(decoding: raw, as: UTF8.self)
                    : String(decoding: raw.dropFirst().dropLast(), as: UTF8.self)
                guard stack[top].keys.insert(key).inserted else {
                    return DuplicateKey(key: key, offset: start, path: path(stack, under: root) + ".\(key)")
                }
                stack[top].last = key
                stack[top].expectingKey = false
            case UInt8(ascii: "{"):
                stack.append(Frame(isObject: true, expectingKey: true))
            case UInt8(ascii: "["):
                stack.append(Frame(isObject: false, expectingKey: false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if !stack.isEmpty { stack.removeLast() }
            case UInt8(ascii: ","):
                if !stack.isEmpty {
                    stack[stack.count - 1].expectingKey = stack[stack.count - 1].isObject
                    stack[stack.count - 1].index += 1
                }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// The path of the innermost object of `stack` (the frames around it name where each child is).
    private static func path(_ stack: [Frame], under root: String) -> String {
        stack.dropLast().reduce(root) { path, frame in
            frame.isObject ? "\(path).\(frame.last)" : "\(path)[\(frame.index)]"
        }
    }

    /// The refusal, located at `place` (a line and column, or a byte offset).
    func error(at place: String) -> StorageError {
        .invalidArchive(location: place, reason: "the key \"\(key)\" appears twice in one object (\(path))")
    }
}
