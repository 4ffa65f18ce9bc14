import Foundation

/// The program that keeps a browser (a window) in the store when it is not the
/// app itself: a web browser mirrored through its native host.
///
/// Two browsers pointed at one store keep windows of their own: each host
/// matches, writes and closes only the windows of its source. A browser with no
/// source is the app's own.
public struct BrowserSource: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The source's name, as stored (`browser_sources.source`).
    public let rawValue: String

    /// A source named `rawValue`: 1 to 64 Unicode scalars (as SQLite's `length` counts them),
    /// none of them a control character.
    public init?(rawValue: String) {
        guard (1...64).contains(rawValue.unicodeScalars.count),
              !rawValue.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        self.rawValue = rawValue
    }

    /// Chromium, or a browser built on it, mirrored by the extension.
    public static let chromium = BrowserSource(rawValue: "chromium")!
    /// Firefox, mirrored by the extension.
    public static let firefox = BrowserSource(rawValue: "firefox")!

    /// The source's name.
    public var description: String { rawValue }
}
