/// The size limits a persisted navigation history respects.
///
/// Text lengths are counted in Unicode scalars (`String.unicodeScalars.count`),
/// which is what SQLite's `length()` returns for a `TEXT` value, so an entry that
/// passes ``NavigationItem/validated()`` also passes the `CHECK (length(…) <= …)`
/// constraints of the `navigation_entries` table. Counting `Character`s
/// (`String.count`) would not do: one `Character` such as a family emoji can
/// hold several scalars, so 512 of them may be thousands of scalars long.
public enum NavigationLimits {
    /// The most Unicode scalars a title keeps; longer titles are truncated (Chrome caps titles at 512 characters).
    public static let maximumTitleLength = 512

    /// The most Unicode scalars a URL field may hold (2 Mi, Chrome's `url::kMaxURLChars`); longer URLs are refused.
    public static let maximumURLLength = 2 * 1024 * 1024

    /// The number of entries a persisted history keeps by default (Chrome iOS keeps 75).
    public static let defaultMaximumEntries = 75

    /// The largest opaque engine-state blob a tab keeps, in bytes (5 MiB, as Chrome iOS).
    ///
    /// A larger blob is dropped, never truncated: a truncated blob could not be restored.
    public static let defaultMaximumEngineStateBytes = 5 * 1024 * 1024
}
