import Foundation
import SessionModel
import SessionStorage

/// One history entry as Chromium writes it in `kCommandUpdateTabNavigation`
/// (both files): a pickle of the tab id, then a `SerializedNavigationEntry`
/// (`components/sessions/core/serialized_navigation_entry.cc`, `WriteToPickle`):
///
/// `int index`, `string virtual_url`, `string16 title`, `string page_state`,
/// `int transition`; then, added later and so optional when reading:
/// `int type_mask` (1 = has POST data), `string referrer_url`, `int obsolete
/// referrer policy`, `string original_request_url`, `bool overriding_user_agent`,
/// `int64 timestamp` (microseconds since 1601-01-01 UTC), `string16` (removed
/// search terms), `int http_status`, `int referrer_policy`, and further fields
/// this reader does not need.
struct ChromiumNavigation: Sendable {
    /// The tab the command is about.
    var tabID: Int32
    /// The entry's index in the tab's history, as Chromium numbers it.
    var index: Int32
    /// The URL shown to the user, which Chromium restores.
    var url: String
    /// The page title; Chromium may write it empty before the page has loaded.
    var title: String
    /// The raw `ui::PageTransition`.
    var transition: Int32
    /// Whether the page was the result of a POST.
    var post: Bool
    /// The referrer, if any.
    var referrer: String?
    /// The referrer policy, if written.
    var referrerPolicy: Int32?
    /// Whether the tab overrode the user agent.
    var overridingUserAgent: Bool
    /// When the navigation was committed, if written and not null.
    var timestamp: Date?
    /// The HTTP status, if written and not 0.
    var httpStatus: Int32?

    /// Reads the command's payload.
    ///
    /// - Throws: ``MalformedPayload`` when a required field is missing or a
    ///   length runs past the payload.
    init(payload: ArraySlice<UInt8>) throws(MalformedPayload) {
        var pickle = try Pickle(payload)
        tabID = try pickle.int32("the tab id")
        index = try pickle.int32("the navigation index")
        url = try pickle.string("the URL")
        title = try pickle.string16("the title")
        _ = try pickle.data("the page state")
        transition = try pickle.int32("the transition")
        post = false
        referrer = nil
        referrerPolicy = nil
        overridingUserAgent = false
        timestamp = nil
        httpStatus = nil
        // Later fields: Chromium's ReadFromPickle does not fail when they are missing.
        guard let typeMask = try? pickle.int32() else { return }
        post = typeMask & 1 != 0
        if let spec = try? pickle.string(), !spec.isEmpty { referrer = spec }
        _ = try? pickle.int32()  // the obsolete referrer policy (crbug.com/450589)
        _ = try? pickle.data()  // original_request_url
        overridingUserAgent = (try? pickle.bool()) ?? false
        if let micros = try? pickle.int64() { timestamp = ChromiumTime.date(microsecondsSince1601: micros) }
        _ = try? pickle.string16()  // the removed search terms
        if let status = try? pickle.int32(), status != 0 { httpStatus = status }
        referrerPolicy = try? pickle.int32()
    }

    /// The entry as this store's document has it, or `nil` when its URL cannot
    /// be stored (empty, holding a NUL, or over the store's length limit).
    func entry(fallbackTime: Date) -> SessionArchive.Entry? {
        let status: Int? = httpStatus.flatMap { (0...999).contains($0) ? Int($0) : nil }
        var item = NavigationItem(
            url: url, title: StorableText.title(title), referrerURL: referrer,
            referrerPolicy: referrerPolicy.flatMap(ReferrerPolicy.init(chromiumReferrerPolicy:)) ?? .default,
            transition: NavigationTransition(chromiumPageTransition: transition) ?? .link,
            timestamp: timestamp ?? fallbackTime, httpStatus: status, isPost: post,
            userAgentType: overridingUserAgent ? .desktop : .automatic)
        // The store's own rules (NavigationItem.validated()); a referrer it refuses is dropped, not the entry.
        guard let valid = (try? item.validated()) ?? {
            item.referrerURL = nil
            return try? item.validated()
        }() else { return nil }
        return SessionArchive.Entry(valid)
    }
}
