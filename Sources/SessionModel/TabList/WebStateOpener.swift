/// The tab that opened another tab, and where that opener was in its history at the time.
///
/// The recorded ``navigationIndex`` lets the order controller tell whether the
/// opener has navigated away since it opened the child: only children whose
/// recorded index still equals the opener's current history index count as its
/// children when placing a new tab (<doc:TabListRules>, Insertion, step 4).
public struct WebStateOpener: Hashable, Sendable {
    /// The tab that opened the child.
    public var openerID: WebStateID

    /// The opener's current history index when the child was opened; `nil` if its history was empty.
    public var navigationIndex: Int?

    /// Creates an opener link to `openerID`, recorded at the opener's history index `navigationIndex`.
    public init(openerID: WebStateID, navigationIndex: Int? = nil) {
        self.openerID = openerID
        self.navigationIndex = navigationIndex
    }
}
