extension WebStateListChange {
    /// Describes what changed between two states of one list: the change a
    /// writer persists after a batch of mutations.
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
