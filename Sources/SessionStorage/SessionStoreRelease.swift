/// The release of SessionStore this library belongs to.
///
/// ``version`` is the newest release that the repository's `CHANGELOG.md` names,
/// and `sessionstore --version` prints the same value. The changelog lists every
/// release and, under "Breaking changes", everything a release breaks: while the
/// version is 0.x, a minor release may break the API, the schema (always with a
/// migration) and the formats; a patch release never does.
public enum SessionStoreRelease {
    /// This release's semantic version: `"0.9.0"`.
    public static let version = "0.9.0"
}

// Not `SessionStoreVersion`: swift-symbolgraph-extract (Swift 6.3.1) leaves out of
// the `SessionStore` module's symbol graph the re-exported declarations whose names
// start with "SessionStoreVersion" (`SessionStoreRelease` and `StoreVersion` are
// kept), so DocC could neither show nor link such a type.
