import SessionModel

extension TabGroupColor {
    /// The colour a Firefox tab group colour name stands for, or `nil` for a
    /// name Firefox does not document.
    ///
    /// Firefox's names (`TabGroupState.sys.mjs`): blue, purple, cyan, orange,
    /// yellow, pink, green, gray and red; all but `gray` are spelled as here.
    init?(firefoxName name: String) {
        switch name {
        case "gray", "grey": self = .grey
        default: self.init(rawValue: name)
        }
    }
}
