/// A tab group: its identifier and how it looks.
///
/// Which tabs belong to the group, and so its range in the list, is kept by
/// the ``WebStateList`` (``WebStateList/range(of:)``). A group is always
/// contiguous and never empty; a group that loses its last tab is deleted.
public struct TabGroup: Hashable, Sendable, Identifiable {
    /// The group's identifier.
    public var id: TabGroupID

    /// The group's title, colour and collapsed state.
    public var visualData: TabGroupVisualData

    /// Creates a group description.
    public init(id: TabGroupID = TabGroupID(), visualData: TabGroupVisualData = TabGroupVisualData()) {
        self.id = id
        self.visualData = visualData
    }
}
