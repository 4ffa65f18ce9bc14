import Foundation
import SessionModel
import Testing

/// One title truncation case: the title, and the title `validated()` keeps.
struct TitleTruncationCase: Sendable, CustomTestStringConvertible {
    var name: String
    var title: String
    var expected: String

    var testDescription: String { name }
}

@Suite struct NavigationItemTests {
    static let limit = NavigationLimits.maximumTitleLength

    static let titleCases: [TitleTruncationCase] = [
        TitleTruncationCase(name: "empty", title: "", expected: ""),
        TitleTruncationCase(
            name: "512 ASCII kept",
            title: String(repeating: "a", count: limit),
            expected: String(repeating: "a", count: limit)
        ),
        TitleTruncationCase(
            name: "513 ASCII cut to 512",
            title: String(repeating: "a", count: limit + 1),
            expected: String(repeating: "a", count: limit)
        ),
        // "👍🏽" is one Character of two scalars: 256 of them are exactly 512 scalars.
        TitleTruncationCase(
            name: "256 two-scalar emoji kept",
            title: String(repeating: "👍🏽", count: 256),
            expected: String(repeating: "👍🏽", count: 256)
        ),
        TitleTruncationCase(
            name: "257 two-scalar emoji cut to 256",
            title: String(repeating: "👍🏽", count: 257),
            expected: String(repeating: "👍🏽", count: 256)
        ),
        // 511 scalars, then a two-scalar emoji that would straddle the limit: it goes whole.
        TitleTruncationCase(
            name: "emoji straddling the limit dropped whole",
            title: String(repeating: "a", count: limit - 1) + "👍🏽b",
            expected: String(repeating: "a", count: limit - 1)
        ),
        // "👨‍👩‍👧" is one Character of five scalars: 103 of them are 515 scalars, 102 are 510.
        TitleTruncationCase(
            name: "five-scalar family emoji",
            title: String(repeating: "👨‍👩‍👧", count: 103),
            expected: String(repeating: "👨‍👩‍👧", count: 102)
        ),
        // "e" + combining acute: one Character, two scalars.
        TitleTruncationCase(
            name: "decomposed accents",
            title: String(repeating: "e\u{301}", count: 300),
            expected: String(repeating: "e\u{301}", count: 256)
        ),
        // Precomposed "é" is one scalar: 512 characters fit.
        TitleTruncationCase(
            name: "precomposed accents",
            title: String(repeating: "\u{E9}", count: 600),
            expected: String(repeating: "\u{E9}", count: 512)
        ),
    ]

    // MARK: - Title

    @Test(arguments: titleCases)
    func validated_title_truncatedToWholeCharactersWithinLimit(_ testCase: TitleTruncationCase) throws {
        let item = try NavigationItem(url: "https://a.example/", title: testCase.title).validated()
        #expect(item.title == testCase.expected)
        #expect(item.title.unicodeScalars.count <= NavigationLimits.maximumTitleLength)
        #expect(testCase.title.unicodeScalars.starts(with: item.title.unicodeScalars))
    }

    @Test func validated_validItem_returnsItUnchanged() throws {
        let item = Self.fullItem
        #expect(try item.validated() == item)
    }

    @Test func validated_truncatedTitle_keepsOtherFields() throws {
        var item = Self.fullItem
        item.title = String(repeating: "x", count: 1000)
        var expected = item
        expected.title = String(repeating: "x", count: 512)
        #expect(try item.validated() == expected)
    }

    // MARK: - URLs

    @Test(arguments: ["url", "virtualURL", "referrerURL", "faviconURL"])
    func validated_urlAtLimit_accepted(field: String) throws {
        let item = Self.item(settingURLField: field, to: String(repeating: "a", count: NavigationLimits.maximumURLLength))
        #expect(try item.validated() == item)
    }

    @Test(arguments: ["url", "virtualURL", "referrerURL", "faviconURL"])
    func validated_urlOverLimit_throwsURLTooLong(field: String) {
        let length = NavigationLimits.maximumURLLength + 1
        let item = Self.item(settingURLField: field, to: String(repeating: "a", count: length))
        #expect(throws: NavigationHistoryError.urlTooLong(field: field, length: length)) {
            try item.validated()
        }
    }

    @Test func validated_multiByteURLAtLimit_countsScalarsNotBytes() throws {
        // 2 Mi scalars of two UTF-8 bytes each: 4 MiB of UTF-8, but within SQLite's length() limit.
        let url = String(repeating: "\u{E9}", count: NavigationLimits.maximumURLLength)
        #expect(try NavigationItem(url: url).validated().url == url)
        #expect(throws: NavigationHistoryError.urlTooLong(field: "url", length: url.unicodeScalars.count + 1)) {
            try NavigationItem(url: url + "\u{E9}").validated()
        }
    }

    @Test func validated_multiScalarCharactersInURL_countedAsScalars() {
        // Half as many Characters as the limit, but one scalar over it.
        let url = String(repeating: "e\u{301}", count: NavigationLimits.maximumURLLength / 2) + "a"
        #expect(url.count <= NavigationLimits.maximumURLLength)
        #expect(throws: NavigationHistoryError.urlTooLong(field: "url", length: NavigationLimits.maximumURLLength + 1)) {
            try NavigationItem(url: url).validated()
        }
    }

    @Test func validated_emptyURL_throwsEmptyURL() {
        #expect(throws: NavigationHistoryError.emptyURL) {
            try NavigationItem(url: "").validated()
        }
    }

    @Test func validated_emptyURLAndBadStatus_reportsEmptyURLFirst() {
        #expect(throws: NavigationHistoryError.emptyURL) {
            try NavigationItem(url: "", httpStatus: 5000).validated()
        }
    }

    // MARK: - HTTP status

    @Test(arguments: [Int?.none, 0, 200, 404, 999])
    func validated_statusInRange_accepted(status: Int?) throws {
        let item = NavigationItem(url: "https://a.example/", httpStatus: status)
        #expect(try item.validated() == item)
    }

    @Test(arguments: [-1, 1000, Int.min, Int.max])
    func validated_statusOutOfRange_throwsInvalidHTTPStatus(status: Int) {
        #expect(throws: NavigationHistoryError.invalidHTTPStatus(status)) {
            try NavigationItem(url: "https://a.example/", httpStatus: status).validated()
        }
    }

    // MARK: - Defaults, raw values, Codable

    @Test func init_onlyURL_usesDocumentedDefaults() {
        let item = NavigationItem(url: "https://a.example/")
        #expect(item.virtualURL == nil)
        #expect(item.title == "")
        #expect(item.referrerURL == nil)
        #expect(item.referrerPolicy == .default)
        #expect(item.transition == .link)
        #expect(item.httpStatus == nil)
        #expect(item.isPost == false)
        #expect(item.faviconURL == nil)
        #expect(item.userAgentType == .automatic)
        #expect(item.pageState == nil)
    }

    @Test func rawValues_matchDatabaseText() {
        #expect(NavigationTransition.allCases.map(\.rawValue) == [
            "link", "typed", "auto_bookmark", "auto_subframe", "manual_subframe", "generated", "auto_toplevel",
            "form_submit", "reload", "keyword", "keyword_generated",
        ])
        #expect(ReferrerPolicy.allCases.map(\.rawValue) == [
            "always", "default", "no-referrer-when-downgrade", "never", "origin", "origin-when-cross-origin",
            "same-origin", "strict-origin", "strict-origin-when-cross-origin",
        ])
        #expect(UserAgentType.allCases.map(\.rawValue) == ["none", "automatic", "mobile", "desktop"])
    }

    @Test func codable_fullItem_roundTrips() throws {
        let data = try JSONEncoder().encode(Self.fullItem)
        #expect(try JSONDecoder().decode(NavigationItem.self, from: data) == Self.fullItem)
    }

    @Test func codable_minimalItem_roundTrips() throws {
        let item = NavigationItem(url: "about:blank", timestamp: Date(timeIntervalSince1970: 0))
        let data = try JSONEncoder().encode(item)
        #expect(try JSONDecoder().decode(NavigationItem.self, from: data) == item)
    }

    @Test func codable_enums_encodeAsDatabaseText() throws {
        let item = NavigationItem(
            url: "https://a.example/", referrerPolicy: .strictOriginWhenCrossOrigin, transition: .autoBookmark,
            userAgentType: .desktop
        )
        let text = String(decoding: try JSONEncoder().encode(item), as: UTF8.self)
        #expect(text.contains("\"strict-origin-when-cross-origin\""))
        #expect(text.contains("\"auto_bookmark\""))
        #expect(text.contains("\"desktop\""))
    }

    // MARK: - Errors

    @Test func errorDescriptions_areOneSentenceWithoutPageText() {
        let errors: [NavigationHistoryError] = [
            .indexOutOfRange(index: 3, count: 2), .cannotGoBack, .cannotGoForward, .emptyURL,
            .urlTooLong(field: "referrerURL", length: 2_097_153), .invalidHTTPStatus(1000), .invalidMaximumEntries(0),
        ]
        for error in errors {
            #expect(error.description.hasSuffix("."))
            #expect(error.description.filter { $0 == "." }.count == 1)
            #expect(!error.description.contains("http"))
        }
        #expect(NavigationHistoryError.urlTooLong(field: "referrerURL", length: 2_097_153).description.contains("referrerURL"))
    }

    // MARK: - Helpers

    static let fullItem = NavigationItem(
        url: "https://a.example/page?q=1",
        virtualURL: "view-source:https://a.example/page?q=1",
        title: "A page",
        referrerURL: "https://b.example/",
        referrerPolicy: .origin,
        transition: .formSubmit,
        timestamp: Date(timeIntervalSince1970: 1_700_000_000.5),
        httpStatus: 200,
        isPost: true,
        faviconURL: "https://a.example/favicon.ico",
        userAgentType: .mobile,
        pageState: Data([0, 1, 2, 255])
    )

    /// A valid item whose URL field named `field` (a property name) is `value`.
    static func item(settingURLField field: String, to value: String) -> NavigationItem {
        var item = NavigationItem(url: "https://a.example/")
        switch field {
        case "url": item.url = value
        case "virtualURL": item.virtualURL = value
        case "referrerURL": item.referrerURL = value
        case "faviconURL": item.faviconURL = value
        default: Issue.record("Unknown URL field \(field)")
        }
        return item
    }
}
