extension WebStateListChange {
    /// Describes what changed between two states of one list, by comparing them whole.
    ///
    /// A writer that applied the mutations itself takes their change from
    /// ``WebStateList/takeRecordedChanges()`` in time proportional to what they
    /// touched. This diff is for a list replaced wholesale (read from elsewhere,
    /// or assigned as a whole value), whose recording says nothing about the old
    /// one; it costs time proportional to both lists.
    ///
    ///     "| a b* c"  ->  "| c a b*"   gives  moved: [c]
    ///
    /// - Parameters:
    ///   - before: The list before the mutations.
    ///   - after: The list after them.
    ///   - moveHints: Tabs the mutations moved on purpose, preferred when
    ///     several minimal answers exist.
    public static func between(
        _ before: WebStateList, _ after: WebStateList, moveHints: Set<WebStateID> = []
    ) -> WebStateListChange {
        WebStateListChange(from: before, to: after, moveHints: moveHints)
    }
}
