import Foundation
import SessionModel

// MARK: - WebStateListNotation

/// Builds tab lists from text and prints them back, for tests at every layer.
///
/// The text is Chromium's test notation: letters are tabs, `_` an unnamed tab,
/// `*` marks the active tab (right after it), tabs left of `|` are pinned (the
/// separator is required, so `"| a b"` has no pinned tab and `"|"` is the empty
/// list), `[ N … ]` is tab group N (one digit) and `{ N a b }` is split view N
/// (one digit, its own labels; inside a group or the pinned tabs too). Spaces are optional when
/// parsing; printing uses canonical spacing.
///
///     let (list, names) = try WebStateListNotation.parse("a b | [ 0 c d* ] e")
///     names.format(list)  // "a b | [ 0 c d* ] e"
///
/// A value of this type is the name map. Every tab name and group label has a
/// deterministic identifier derived from the name, the kind and a `scope` (use
/// a different scope for each browser of one store, since identifiers are
/// unique per store), so a test can insert `names.webState("X")` and see `X`
/// printed. Identifiers made elsewhere (by a store, for example) can be given
/// names with ``assign(_:to:)``; tabs with no name print as `_`.
public struct WebStateListNotation: Hashable, Sendable {
    /// Distinguishes the identifiers of lists that must not share them.
    public let scope: UInt32

    /// Names given to identifiers that are not derived from a name.
    public private(set) var assignedNames: [WebStateID: String]

    /// Labels given to group identifiers that are not derived from a label.
    public private(set) var assignedLabels: [TabGroupID: String]

    /// The time given to every tab the notation creates, so that parsed lists compare equal.
    public static let referenceDate = Date(timeIntervalSince1970: 0)

    /// Creates a name map whose derived identifiers use `scope`.
    public init(scope: UInt32 = 0) {
        self.scope = scope
        self.assignedNames = [:]
        self.assignedLabels = [:]
    }

    // MARK: - Names and identifiers

    /// Returns the identifier of the tab named `name` (a letter).
    public func webStateID(_ name: String) -> WebStateID {
        if let assigned = assignedNames.first(where: { $0.value == name })?.key { return assigned }
        return WebStateID(rawValue: Self.derivedUUID(scope: scope, kind: Self.tabKind, value: Self.scalarValue(name)))
    }

    /// Returns the identifier of the group labelled `label` (a digit).
    public func groupID(_ label: String) -> TabGroupID {
        if let assigned = assignedLabels.first(where: { $0.value == label })?.key { return assigned }
        return TabGroupID(rawValue: Self.derivedUUID(scope: scope, kind: Self.groupKind, value: Self.scalarValue(label)))
    }

    /// Returns the identifier of the split labelled `label` (a digit).
    public func splitID(_ label: String) -> TabSplitID {
        TabSplitID(rawValue: Self.derivedUUID(scope: scope, kind: Self.splitKind, value: Self.scalarValue(label)))
    }

    /// Returns the label of split `id`, or `nil` if it has none.
    public func splitLabel(of id: TabSplitID) -> String? {
        guard let value = Self.derivedValue(of: id.rawValue, scope: scope, kind: Self.splitKind) else { return nil }
        return Self.name(for: value, where: \.isNumber)
    }

    /// Returns a new tab named `name`, created at ``referenceDate``.
    public func webState(_ name: String, navigationIndex: Int? = nil) -> WebState {
        WebState(id: webStateID(name), navigationIndex: navigationIndex, createdAt: Self.referenceDate)
    }

    /// Returns an opener link to the tab named `name`, recorded at `navigationIndex`.
    public func opener(_ name: String, navigationIndex: Int? = nil) -> WebStateOpener {
        WebStateOpener(openerID: webStateID(name), navigationIndex: navigationIndex)
    }

    /// Returns the name of tab `id`, or `nil` if it has none.
    public func name(of id: WebStateID) -> String? {
        if let assigned = assignedNames[id] { return assigned }
        guard let value = Self.derivedValue(of: id.rawValue, scope: scope, kind: Self.tabKind) else { return nil }
        return Self.name(for: value, where: \.isLetter)
    }

    /// Returns the label of group `id`, or `nil` if it has none.
    public func label(of id: TabGroupID) -> String? {
        if let assigned = assignedLabels[id] { return assigned }
        guard let value = Self.derivedValue(of: id.rawValue, scope: scope, kind: Self.groupKind) else { return nil }
        return Self.name(for: value, where: \.isNumber)
    }

    /// Names tab `id` `name` when printing; the name then designates that tab.
    public mutating func assign(_ name: String, to id: WebStateID) {
        assignedNames = assignedNames.filter { $0.value != name }
        assignedNames[id] = name
    }

    /// Labels group `id` `label` when printing; the label then designates that group.
    public mutating func assign(_ label: String, to id: TabGroupID) {
        assignedLabels = assignedLabels.filter { $0.value != label }
        assignedLabels[id] = label
    }

    /// Returns the openers of `list` by name: child name to opener name (`_` for unnamed tabs).
    ///
    ///     "| a* b c" with c opened by a  ->  ["c": "a"]
    public func openers(in list: WebStateList) -> [String: String] {
        var result: [String: String] = [:]
        for webState in list.webStates {
            guard let opener = webState.opener else { continue }
            result[name(of: webState.id) ?? "_"] = name(of: opener.openerID) ?? "_"
        }
        return result
    }

    // MARK: - Printing

    /// Prints `list` in canonical spacing: `"a b | [ 0 c d* ] e"`, `"| a b"`, or `"|"` when empty.
    public func format(_ list: WebStateList) -> String {
        guard !list.isEmpty else { return "|" }
        var tokens: [String] = []
        var separatorAdded = false
        for index in 0..<list.count {
            let pinned = list.isPinned(at: index)
            let group = list.groupID(at: index)
            let previousGroup = index > 0 ? list.groupID(at: index - 1) : nil
            let nextGroup = index + 1 < list.count ? list.groupID(at: index + 1) : nil
            if !separatorAdded, !pinned {
                tokens.append("|")
                separatorAdded = true
            }
            if let group, group != previousGroup {
                tokens.append("[")
                tokens.append(label(of: group) ?? "_")
            }
            let split = list.splitID(at: index)
            let splitStarts = split != nil && (index == 0 || list.splitID(at: index - 1) != split)
            if let split, splitStarts {
                tokens.append("{")
                tokens.append(splitLabel(of: split) ?? "_")
            }
            let name = name(of: list.webStates[index].id) ?? "_"
            tokens.append(list.activeIndex == index ? name + "*" : name)
            if split != nil, !splitStarts { tokens.append("}") }
            if group != nil, group != nextGroup { tokens.append("]") }
        }
        if !separatorAdded { tokens.append("|") }
        return tokens.joined(separator: " ")
    }

    // MARK: - Parsing

    /// Builds a list from `text` and returns it with the name map that reads and prints it.
    ///
    ///     try WebStateListNotation.parse("| a* b c", openers: ["c": "a"])
    ///
    /// - Parameters:
    ///   - text: The list, such as `"a b | [ 0 c d* ] e"`.
    ///   - openers: Child name to opener name.
    ///   - navigationIndexes: Tab name to current history index (default `nil`).
    ///   - openerNavigationIndexes: Child name to the opener navigation index it recorded; by
    ///     default the opener's current index, so the child counts for placement.
    ///   - groups: Group label to visual data (default: untitled, grey, expanded).
    ///   - scope: The scope of the derived identifiers.
    /// - Returns: The list and its name map.
    /// - Throws: ``WebStateListNotationError`` when the text is not valid notation or a name in the
    ///   dictionaries is not in it.
    public static func parse(
        _ text: String,
        openers: [String: String] = [:],
        navigationIndexes: [String: Int] = [:],
        openerNavigationIndexes: [String: Int] = [:],
        groups: [String: TabGroupVisualData] = [:],
        scope: UInt32 = 0
    ) throws -> (list: WebStateList, notation: WebStateListNotation) {
        let notation = WebStateListNotation(scope: scope)
        let layout = try parseLayout(text)
        let names = Set(layout.tabs.compactMap(\.name))
        for name in Array(openers.keys) + Array(openers.values) + Array(navigationIndexes.keys)
            + Array(openerNavigationIndexes.keys) where !names.contains(name)
        {
            throw WebStateListNotationError.unknownName(name)
        }
        for label in groups.keys where !layout.labels.contains(label) {
            throw WebStateListNotationError.unknownGroupLabel(label)
        }

        var unnamedCount: UInt64 = 0
        var webStates: [WebState] = []
        for tab in layout.tabs {
            guard let name = tab.name else {
                unnamedCount += 1
                let uuid = derivedUUID(scope: scope, kind: unnamedKind, value: unnamedCount)
                webStates.append(WebState(id: WebStateID(rawValue: uuid), createdAt: referenceDate))
                continue
            }
            var webState = notation.webState(name, navigationIndex: navigationIndexes[name])
            if let openerName = openers[name] {
                webState.opener = notation.opener(
                    openerName,
                    navigationIndex: openerNavigationIndexes[name] ?? navigationIndexes[openerName]
                )
            }
            webStates.append(webState)
        }
        let list = try WebStateList(
            webStates: webStates,
            pinnedCount: layout.tabs.filter(\.pinned).count,
            groupIDs: layout.tabs.map { $0.label.map(notation.groupID) },
            groups: layout.labels.map { TabGroup(id: notation.groupID($0), visualData: groups[$0] ?? TabGroupVisualData()) },
            splitIDs: layout.tabs.map { $0.split.map(notation.splitID) },
            splits: layout.splitLabels.map { TabSplit(id: notation.splitID($0)) },
            activeIndex: layout.activeIndex
        )
        return (list, notation)
    }

    /// One tab of parsed text.
    private struct ParsedTab {
        var name: String?
        var pinned: Bool
        var label: String?
        var split: String?
    }

    /// Reads the shape of a list from `text`.
    private static func parseLayout(
        _ text: String
    ) throws(WebStateListNotationError) -> (
        tabs: [ParsedTab], labels: [String], splitLabels: [String], activeIndex: Int?
    ) {
        var tabs: [ParsedTab] = []
        var labels: [String] = []
        var activeIndex: Int?
        var pinnedDone = false
        var insideGroup = false
        var currentLabel: String?
        var groupSize = 0
        var previousWasTab = false
        var names: Set<String> = []
        var splitLabels: [String] = []
        var insideSplit = false
        var currentSplit: String?

        for character in text {
            if character.isWhitespace { continue }
            let isTab = (character.isLetter && character.isASCII) || character == "_"
            defer { previousWasTab = isTab }
            if insideGroup, currentLabel == nil, !(character.isNumber && character.isASCII) {
                throw .missingGroupLabel
            }
            if insideSplit, currentSplit == nil, !(character.isNumber && character.isASCII) {
                throw .missingGroupLabel
            }
            switch character {
            case _ where isTab:
                let name = character == "_" ? nil : String(character)
                if let name, !names.insert(name).inserted { throw .duplicateName(name) }
                tabs.append(ParsedTab(name: name, pinned: !pinnedDone, label: currentLabel, split: currentSplit))
                groupSize += 1
            case "*":
                guard previousWasTab else { throw .misplacedActiveMarker }
                guard activeIndex == nil else { throw .twoActiveTabs }
                activeIndex = tabs.count - 1
            case "|":
                guard !insideGroup, !insideSplit else { throw .pinnedInsideGroup }
                guard !pinnedDone else { throw .extraPinnedSeparator }
                pinnedDone = true
            case "{":
                guard !insideSplit else { throw .nestedGroup }
                insideSplit = true
                currentSplit = nil
            case "}":
                guard insideSplit, currentSplit != nil else { throw .unbalancedBrackets }
                insideSplit = false
                currentSplit = nil
            case _ where character.isNumber && character.isASCII && insideSplit && currentSplit == nil:
                let label = String(character)
                guard !splitLabels.contains(label) else { throw .duplicateGroupLabel(label) }
                splitLabels.append(label)
                currentSplit = label
            case "[":
                guard !insideGroup, !insideSplit else { throw .nestedGroup }
                guard pinnedDone else { throw .pinnedInsideGroup }
                insideGroup = true
                currentLabel = nil
                groupSize = 0
            case _ where character.isNumber && character.isASCII:
                guard insideGroup, currentLabel == nil else { throw .misplacedGroupLabel }
                let label = String(character)
                guard !labels.contains(label) else { throw .duplicateGroupLabel(label) }
                labels.append(label)
                currentLabel = label
            case "]":
                guard insideGroup, !insideSplit, let label = currentLabel else { throw .unbalancedBrackets }
                guard groupSize > 0 else { throw .emptyGroup(label) }
                insideGroup = false
                currentLabel = nil
            default:
                throw .invalidCharacter(character)
            }
        }
        guard !insideGroup, !insideSplit else { throw .unbalancedBrackets }
        guard pinnedDone else { throw .missingPinnedSeparator }
        return (tabs, labels, splitLabels, activeIndex)
    }

    // MARK: - Derived identifiers

    private static let tabKind: UInt8 = 0x74  // "t"
    private static let groupKind: UInt8 = 0x67  // "g"
    private static let unnamedKind: UInt8 = 0x75  // "u"
    private static let splitKind: UInt8 = 0x73  // "s"

    /// Returns `00000000-7400-4000-8000-000000000061` for scope 0, kind "t", value "a".
    private static func derivedUUID(scope: UInt32, kind: UInt8, value: UInt64) -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for offset in 0..<4 { bytes[offset] = UInt8(truncatingIfNeeded: scope >> (8 * (3 - offset))) }
        bytes[4] = kind
        bytes[6] = 0x40
        bytes[8] = 0x80
        for offset in 0..<6 { bytes[10 + offset] = UInt8(truncatingIfNeeded: value >> (8 * (5 - offset))) }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            )
        )
    }

    /// Returns the value a derived UUID of `scope` and `kind` encodes, or `nil` if it is not one.
    private static func derivedValue(of uuid: UUID, scope: UInt32, kind: UInt8) -> UInt64? {
        let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
        let prefix = withUnsafeBytes(of: derivedUUID(scope: scope, kind: kind, value: 0).uuid) { Array($0) }
        guard bytes[0..<10] == prefix[0..<10] else { return nil }
        return bytes[10..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Returns the single-character name a derived value stands for, if it passes `test`.
    private static func name(for value: UInt64, where test: (Character) -> Bool) -> String? {
        guard let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: value)), scalar.isASCII else { return nil }
        let character = Character(scalar)
        return test(character) ? String(character) : nil
    }

    /// Returns the Unicode value of a one-character name.
    private static func scalarValue(_ name: String) -> UInt64 {
        precondition(name.unicodeScalars.count == 1, "Names and labels are one character: \"\(name)\"")
        return UInt64(name.unicodeScalars.first?.value ?? 0)
    }
}

// MARK: - WebStateListNotationError

/// Why a notation string could not be read.
public enum WebStateListNotationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A character that is not a letter, `_`, a digit, `*`, `|`, `[`, `]` or a space.
    case invalidCharacter(Character)
    /// Two tabs have the same name.
    case duplicateName(String)
    /// Two groups have the same label.
    case duplicateGroupLabel(String)
    /// A `*` that does not follow a tab.
    case misplacedActiveMarker
    /// Two tabs are marked active.
    case twoActiveTabs
    /// No `|` separates pinned tabs from the others.
    case missingPinnedSeparator
    /// More than one `|`.
    case extraPinnedSeparator
    /// A group among the pinned tabs, or a `|` inside a group.
    case pinnedInsideGroup
    /// A `[` inside a group.
    case nestedGroup
    /// A `[` not closed, or a `]` not opened.
    case unbalancedBrackets
    /// A `[` not followed by a digit.
    case missingGroupLabel
    /// A digit that does not follow a `[`.
    case misplacedGroupLabel
    /// A group with no tab.
    case emptyGroup(String)
    /// A name given in a dictionary is not in the text.
    case unknownName(String)
    /// A group label given in a dictionary is not in the text.
    case unknownGroupLabel(String)

    /// One plain sentence that says what is wrong with the text.
    public var description: String {
        switch self {
        case let .invalidCharacter(character): return "The character \"\(character)\" is not notation."
        case let .duplicateName(name): return "Two tabs are named \"\(name)\"."
        case let .duplicateGroupLabel(label): return "Two groups are labelled \"\(label)\"."
        case .misplacedActiveMarker: return "A \"*\" does not follow a tab."
        case .twoActiveTabs: return "More than one tab is marked active."
        case .missingPinnedSeparator: return "The \"|\" after the pinned tabs is missing."
        case .extraPinnedSeparator: return "There is more than one \"|\"."
        case .pinnedInsideGroup: return "Pinned tabs cannot be in a group."
        case .nestedGroup: return "A group cannot contain another group."
        case .unbalancedBrackets: return "The group brackets are not balanced."
        case .missingGroupLabel: return "A \"[\" is not followed by a group label digit."
        case .misplacedGroupLabel: return "A group label digit does not follow a \"[\"."
        case let .emptyGroup(label): return "Group \"\(label)\" has no tab."
        case let .unknownName(name): return "No tab is named \"\(name)\"."
        case let .unknownGroupLabel(label): return "No group is labelled \"\(label)\"."
        }
    }
}
