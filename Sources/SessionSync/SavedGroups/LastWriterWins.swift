/// A field that any device may write: the value with the latest reading wins.
///
/// Merging keeps the later of the two writes, so it is commutative, associative and
/// idempotent. Two writes with the same reading are one device's one event and hold the
/// same value; should they not, the larger value wins, so every device still agrees.
package struct LastWriterWins<Value: Hashable & Sendable & Codable & Comparable>: Hashable, Sendable, Codable {
    /// The value.
    package var value: Value
    /// When it was written, and by which device.
    package var stamp: HybridTimestamp

    /// A write of `value` at `stamp`.
    package init(_ value: Value, at stamp: HybridTimestamp) {
        self.value = value
        self.stamp = stamp
    }

    /// The later of the two writes.
    package func merged(with other: Self) -> Self {
        if stamp != other.stamp { return stamp > other.stamp ? self : other }
        return value >= other.value ? self : other
    }

    enum CodingKeys: String, CodingKey {
        case value = "v", stamp = "t"
    }
}

/// Whether a saved group, or a tab of one, exists: deleting and reopening are writes of this
/// field like any other, so a delete wins over every edit older than it, and only a newer
/// reopen brings the group back.
package enum SavedGroupPresence: Int, Hashable, Sendable, Codable, Comparable {
    /// Deleted (a group) or removed from its group (a tab).
    case deleted = 0
    /// There.
    case present = 1

    package static func < (left: Self, right: Self) -> Bool { left.rawValue < right.rawValue }
}
