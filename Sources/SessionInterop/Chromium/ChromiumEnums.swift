import SessionModel

/// Chromium's `SessionWindow::WindowType` (`components/sessions/core/session_types.h`),
/// as `kCommandSetWindowType` and the tab-restore window command store it.
/// Only normal windows are imported; the others are skipped and counted.
enum ChromiumWindowType: Sendable, Equatable {
    /// `TYPE_NORMAL` (0): a browser window.
    case normal
    /// Any other type: `TYPE_POPUP` (1), `TYPE_APP` (2), `TYPE_DEVTOOLS` (3),
    /// `TYPE_APP_POPUP` (4), `TYPE_CUSTOM_TAB` (5, ChromeOS) or unknown.
    case other(Int32)

    /// The type the stored value names.
    init(_ value: Int32) {
        self = value == 0 ? .normal : .other(value)
    }

    /// The type's name, for notes.
    var name: String {
        switch self {
        case .normal: "normal"
        case .other(1): "popup"
        case .other(2): "app"
        case .other(3): "devtools"
        case .other(4): "app popup"
        case .other(5): "custom tab"
        case .other(let value): "type \(value)"
        }
    }
}

extension TabGroupColor {
    /// The colour Chromium stores as `tab_groups::TabGroupColorId`
    /// (`components/tab_groups/tab_group_color.h`: kGrey = 0, kBlue, kRed,
    /// kYellow, kGreen, kPink, kPurple, kCyan, kOrange = 8), or `nil` for a
    /// value Chromium does not define.
    init?(chromiumColorID value: UInt32) {
        let colors: [TabGroupColor] = [.grey, .blue, .red, .yellow, .green, .pink, .purple, .cyan, .orange]
        guard value < colors.count else { return nil }
        self = colors[Int(value)]
    }
}

extension NavigationTransition {
    /// The transition whose core type Chromium stores in the low byte of a
    /// `ui::PageTransition` (`ui/base/page_transition_types.h`: LINK = 0, TYPED,
    /// AUTO_BOOKMARK, AUTO_SUBFRAME, MANUAL_SUBFRAME, GENERATED, AUTO_TOPLEVEL,
    /// FORM_SUBMIT, RELOAD, KEYWORD, KEYWORD_GENERATED = 10); qualifiers such as
    /// FORWARD_BACK in the high bits are dropped. `nil` for an unknown core type.
    init?(chromiumPageTransition value: Int32) {
        let cases: [NavigationTransition] = [
            .link, .typed, .autoBookmark, .autoSubframe, .manualSubframe, .generated, .autoToplevel, .formSubmit,
            .reload, .keyword, .keywordGenerated,
        ]
        let core = Int(value & 0xFF)
        guard core < cases.count else { return nil }
        self = cases[core]
    }
}

extension ReferrerPolicy {
    /// The policy Chromium stores as `network::mojom::ReferrerPolicy`
    /// (`services/network/public/mojom/referrer_policy.mojom`: kAlways = 0,
    /// kDefault, kNoReferrerWhenDowngrade, kNever, kOrigin, kOriginWhenCrossOrigin,
    /// kStrictOriginWhenCrossOrigin, kSameOrigin, kStrictOrigin = 8), or `nil`.
    init?(chromiumReferrerPolicy value: Int32) {
        let cases: [ReferrerPolicy] = [
            .always, .default, .noReferrerWhenDowngrade, .never, .origin, .originWhenCrossOrigin,
            .strictOriginWhenCrossOrigin, .sameOrigin, .strictOrigin,
        ]
        guard value >= 0, Int(value) < cases.count else { return nil }
        self = cases[Int(value)]
    }
}
