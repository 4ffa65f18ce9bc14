import Foundation

/// One entry of a tab's back/forward list: a page the tab visited, as it was when it was left.
///
/// A plain value: any field may be set, and ``validated()`` returns the copy a
/// ``NavigationHistory`` stores (title truncated, URLs and status checked against
/// ``NavigationLimits``).
///
/// ## Topics
/// ### Page
/// - ``url``
/// - ``virtualURL``
/// - ``title``
/// - ``faviconURL``
/// - ``httpStatus``
/// ### How it was reached
/// - ``referrerURL``
/// - ``referrerPolicy``
/// - ``transition``
/// - ``isPost``
/// - ``timestamp``
/// ### Engine
/// - ``userAgentType``
/// - ``pageState``
/// ### Validation
/// - ``validated()``
public struct NavigationItem: Hashable, Sendable, Codable {
    /// The URL that was loaded.
    public var url: String

    /// The URL shown to the user, when it differs from ``url`` (for example for `view-source:`).
    public var virtualURL: String?

    /// The page title; empty when the page had none.
    public var title: String

    /// The referrer sent with the request, if any.
    public var referrerURL: String?

    /// The referrer policy the request used.
    public var referrerPolicy: ReferrerPolicy

    /// How the user got to the page.
    public var transition: NavigationTransition

    /// When the navigation was committed.
    public var timestamp: Date

    /// The HTTP status of the main resource, in `0...999`; `nil` when unknown or not HTTP.
    public var httpStatus: Int?

    /// Whether the page was the result of a POST, so reloading it would resubmit a form.
    public var isPost: Bool

    /// The page's favicon URL, if known.
    public var faviconURL: String?

    /// The user agent the page was loaded with.
    public var userAgentType: UserAgentType

    /// Opaque, engine-specific page state (scroll position, form contents…), if any.
    public var pageState: Data?

    /// Creates an entry; only the URL is required.
    ///
    /// The entry is not validated; see ``validated()``.
    ///
    /// - Parameters:
    ///   - url: The URL that was loaded.
    ///   - virtualURL: The URL shown to the user, when it differs.
    ///   - title: The page title; empty by default.
    ///   - referrerURL: The referrer, if any.
    ///   - referrerPolicy: The referrer policy; ``ReferrerPolicy/default`` by default.
    ///   - transition: How the user got there; ``NavigationTransition/link`` by default.
    ///   - timestamp: When the navigation was committed; now by default.
    ///   - httpStatus: The HTTP status, if known.
    ///   - isPost: Whether the page came from a POST; `false` by default.
    ///   - faviconURL: The favicon URL, if known.
    ///   - userAgentType: The user agent; ``UserAgentType/automatic`` by default.
    ///   - pageState: Opaque engine page state, if any.
    public init(
        url: String,
        virtualURL: String? = nil,
        title: String = "",
        referrerURL: String? = nil,
        referrerPolicy: ReferrerPolicy = .default,
        transition: NavigationTransition = .link,
        timestamp: Date = Date(),
        httpStatus: Int? = nil,
        isPost: Bool = false,
        faviconURL: String? = nil,
        userAgentType: UserAgentType = .automatic,
        pageState: Data? = nil
    ) {
        self.url = url
        self.virtualURL = virtualURL
        self.title = title
        self.referrerURL = referrerURL
        self.referrerPolicy = referrerPolicy
        self.transition = transition
        self.timestamp = timestamp
        self.httpStatus = httpStatus
        self.isPost = isPost
        self.faviconURL = faviconURL
        self.userAgentType = userAgentType
        self.pageState = pageState
    }

    // MARK: - Validation

    /// Returns a copy that satisfies ``NavigationLimits``, truncating the title if needed.
    ///
    /// Lengths are counted in Unicode scalars, as SQLite's `length()` counts a
    /// `TEXT` value (see ``NavigationLimits``). In order:
    /// 1. An empty ``url`` is refused.
    /// 2. ``url``, ``virtualURL``, ``referrerURL`` and ``faviconURL``, checked in that
    ///    order, are refused when longer than ``NavigationLimits/maximumURLLength``.
    ///    A URL is never truncated: a cut URL would load another page.
    /// 3. An ``httpStatus`` outside `0...999` is refused.
    /// 4. A NUL character in any text field is refused (SQLite would cut the text there).
    /// 5. A ``title`` longer than ``NavigationLimits/maximumTitleLength`` is truncated
    ///    to the longest prefix of whole `Character`s that fits, so an emoji or an
    ///    accented letter is never split (the result may be a few scalars shorter
    ///    than the limit).
    ///
    /// Validating a valid entry returns it unchanged.
    ///
    /// - Returns: The entry, with its title truncated if it was too long.
    /// - Throws: ``NavigationHistoryError/emptyURL``,
    ///   ``NavigationHistoryError/urlTooLong(field:length:)`` (with the property name,
    ///   such as `"virtualURL"`), ``NavigationHistoryError/invalidHTTPStatus(_:)`` or
    ///   ``NavigationHistoryError/containsNUL(field:)``.
    public func validated() throws -> NavigationItem {
        guard !url.isEmpty else { throw NavigationHistoryError.emptyURL }
        try Self.checkURL(url, field: "url")
        try Self.checkURL(virtualURL, field: "virtualURL")
        try Self.checkURL(referrerURL, field: "referrerURL")
        try Self.checkURL(faviconURL, field: "faviconURL")
        if let httpStatus, !(0...999).contains(httpStatus) {
            throw NavigationHistoryError.invalidHTTPStatus(httpStatus)
        }
        let texts: [(String, String?)] = [
            ("url", url), ("virtualURL", virtualURL), ("title", title), ("referrerURL", referrerURL),
            ("faviconURL", faviconURL),
        ]
        for (field, value) in texts where value?.utf8.contains(0) == true {
            throw NavigationHistoryError.containsNUL(field: field)
        }
        var copy = self
        copy.title = Self.truncatedTitle(title)
        return copy
    }

    /// Throws if `value` is longer than ``NavigationLimits/maximumURLLength`` Unicode scalars.
    private static func checkURL(_ value: String?, field: String) throws {
        guard let value else { return }
        let limit = NavigationLimits.maximumURLLength
        // Every scalar takes at least one UTF-8 byte, and `utf8.count` is O(1) on native strings.
        guard value.utf8.count > limit else { return }
        let length = value.unicodeScalars.count
        if length > limit {
            throw NavigationHistoryError.urlTooLong(field: field, length: length)
        }
    }

    /// Returns the longest prefix of whole characters of `title` that is at most
    /// ``NavigationLimits/maximumTitleLength`` Unicode scalars long.
    package static func truncatedTitle(_ title: String) -> String {
        let limit = NavigationLimits.maximumTitleLength
        guard title.unicodeScalars.count > limit else { return title }
        var scalars = 0
        var end = title.startIndex
        for index in title.indices {
            let characterScalars = title[index].unicodeScalars.count
            guard scalars + characterScalars <= limit else { break }
            scalars += characterScalars
            end = title.index(after: index)
        }
        return String(title[..<end])
    }
}

// MARK: - NavigationTransition

/// How the user got to a page (the core types of Chromium's `ui::PageTransition`).
///
/// Raw values are the text stored in the database's `transition_type` column, exactly.
public enum NavigationTransition: String, CaseIterable, Hashable, Sendable, Codable {
    /// The user followed a link.
    case link
    /// The user typed the URL (or picked a suggestion for it) in the omnibox.
    case typed
    /// The user picked a bookmark or another browser-provided entry point.
    case autoBookmark = "auto_bookmark"
    /// A subframe was loaded automatically (an ad, an iframe).
    case autoSubframe = "auto_subframe"
    /// The user navigated a subframe explicitly.
    case manualSubframe = "manual_subframe"
    /// The user picked an omnibox suggestion that was not a URL (a search).
    case generated
    /// A top-level page was loaded automatically (for example the start page).
    case autoToplevel = "auto_toplevel"
    /// The user submitted a form.
    case formSubmit = "form_submit"
    /// The user reloaded the page.
    case reload
    /// The URL came from a keyword (custom search engine) query.
    case keyword
    /// A visit recorded for a keyword search engine, generated from a keyword query.
    case keywordGenerated = "keyword_generated"
}

// MARK: - ReferrerPolicy

/// The referrer policy a request used (Chromium's `web::ReferrerPolicy`).
///
/// Raw values are the text stored in the database's `referrer_policy` column, exactly.
public enum ReferrerPolicy: String, CaseIterable, Hashable, Sendable, Codable {
    /// Always send the full referrer.
    case always
    /// The engine's default policy.
    case `default`
    /// Send the full referrer, except from HTTPS to HTTP.
    case noReferrerWhenDowngrade = "no-referrer-when-downgrade"
    /// Never send a referrer.
    case never
    /// Send only the origin.
    case origin
    /// Send the full referrer to the same origin, only the origin elsewhere.
    case originWhenCrossOrigin = "origin-when-cross-origin"
    /// Send the full referrer to the same origin, nothing elsewhere.
    case sameOrigin = "same-origin"
    /// Send only the origin, and nothing from HTTPS to HTTP.
    case strictOrigin = "strict-origin"
    /// Send the full referrer to the same origin, only the origin elsewhere, nothing from HTTPS to HTTP.
    case strictOriginWhenCrossOrigin = "strict-origin-when-cross-origin"
}

// MARK: - UserAgentType

/// The user agent a page was loaded with (Chromium's `web::UserAgentType`).
///
/// Raw values are the text stored in the database's `user_agent_type` column, exactly.
public enum UserAgentType: String, CaseIterable, Hashable, Sendable, Codable {
    /// No user agent applies (for example for an `about:` or app-specific page).
    case none
    /// The engine chooses the mobile or desktop user agent.
    case automatic
    /// The mobile user agent.
    case mobile
    /// The desktop user agent.
    case desktop
}
