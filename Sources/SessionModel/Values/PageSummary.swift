/// What a tab shows of its current page: the fields a tab strip or grid needs.
public struct PageSummary: Hashable, Sendable, Codable {
    /// The page's title (may be empty).
    public var title: String
    /// The page's URL.
    public var url: String
    /// The URL shown to the user, when it differs from ``url``.
    public var virtualURL: String?
    /// The page's favicon URL.
    public var faviconURL: String?

    /// Creates a summary.
    public init(title: String, url: String, virtualURL: String? = nil, faviconURL: String? = nil) {
        self.title = title
        self.url = url
        self.virtualURL = virtualURL
        self.faviconURL = faviconURL
    }
}
