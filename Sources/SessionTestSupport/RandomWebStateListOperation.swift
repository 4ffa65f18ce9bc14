import Foundation
import SessionModel

/// A random mutation of a tab list, for property tests that apply the same
/// sequence to the pure model and to a store and compare the results.
///
/// Indexes are drawn a little past the list's bounds on purpose, so that
/// errors are exercised as well as successes.
public struct RandomWebStateListOperation: Sendable, CustomStringConvertible {
    /// What the operation does, in words (for failure messages).
    public let description: String
    private let apply: @Sendable (inout WebStateList) throws -> Void

    /// Applies the operation to `list`.
    public func callAsFunction(_ list: inout WebStateList) throws {
        try apply(&list)
    }

    /// Draws an operation suited to `list`; identifiers of new tabs and groups
    /// come from `rng` too, so a seed replays exactly, even in another process.
    ///
    /// - Parameter crowded: Turn inserts into removals, to keep a long run's list small.
    package static func random(
        for list: WebStateList, crowded: Bool = false, using rng: inout SplitMix64
    ) -> RandomWebStateListOperation {
        let count = list.count
        func index() -> Int { Int.random(in: 0...max(0, count), using: &rng) }
        func indexes() -> [Int] { (0..<Int.random(in: 1...3, using: &rng)).map { _ in Int.random(in: 0..<max(1, count), using: &rng) } }
        let groups = list.orderedGroups.map(\.id)
        let group = groups.randomElement(using: &rng)
        var roll = Int.random(in: 0..<100, using: &rng)
        if crowded, roll < 30 { roll += 40 }  // inserts become removals
        switch roll {
        case 0..<30:
            let webState = WebState(id: WebStateID(rawValue: rng.nextUUID()), createdAt: Date(timeIntervalSince1970: 0))
            var params: InsertionParams = Bool.random(using: &rng) ? .automatic() : .atIndex(index())
            let flavour = Int.random(in: 0..<6, using: &rng)
            if flavour == 0 { params = params.inheritingOpener() }
            if flavour == 1, count > 0 {
                let opener = list.webStates[Int.random(in: 0..<count, using: &rng)]
                params = params.withOpener(WebStateOpener(openerID: opener.id, navigationIndex: opener.navigationIndex))
            }
            if flavour == 2 { params = params.pinned() }
            if flavour == 3, let group { params = params.inGroup(group) }
            if Bool.random(using: &rng) { params = params.activate() }
            let described = "insert(params: \(params))"
            return .init(description: described) { [params] in _ = try $0.insert(webState, params: params) }
        case 30..<40:
            let from = index(), to = index()
            return .init(description: "move(from: \(from), to: \(to))") { _ = try $0.move(from: from, to: to) }
        case 40..<50:
            let at = index()
            return .init(description: "remove(at: \(at))") { _ = try $0.remove(at: at) }
        case 50..<55:
            let set = indexes()
            return .init(description: "remove(\(set))") { _ = try $0.remove(RemovingIndexes(set)) }
        case 55..<63:
            let at: Int? = Bool.random(using: &rng) || count == 0 ? index() : nil
            return .init(description: "activate(at: \(at.map(String.init) ?? "nil"))") { _ = try $0.activate(at: at) }
        case 63..<71:
            let pinned = Bool.random(using: &rng), at = index()
            return .init(description: "setPinned(\(pinned), at: \(at))") { _ = try $0.setPinned(pinned, at: at) }
        case 71..<77:
            let set = indexes()
            let colour = TabGroupColor.allCases.randomElement(using: &rng)!
            let id = TabGroupID(rawValue: rng.nextUUID())
            return .init(description: "createGroup(at: \(set))") {
                _ = try $0.createGroup(at: set, visualData: TabGroupVisualData(title: "g", color: colour), id: id)
            }
        case 77..<81:
            guard let group else { break }
            let set = indexes()
            return .init(description: "moveToGroup(\(set))") { _ = try $0.moveToGroup(set, group: group) }
        case 81..<85:
            let set = indexes()
            return .init(description: "removeFromGroups(\(set))") { _ = try $0.removeFromGroups(set) }
        case 85..<89:
            guard let group else { break }
            let before = index()
            return .init(description: "moveGroup(before: \(before))") { _ = try $0.moveGroup(group, before: before) }
        case 89..<92:
            guard let group else { break }
            return .init(description: "deleteGroup") { _ = try $0.deleteGroup(group) }
        case 92..<95:
            guard let group else { break }
            let collapsed = Bool.random(using: &rng)
            return .init(description: "updateGroup(collapsed: \(collapsed))") {
                _ = try $0.updateGroup(group, visualData: TabGroupVisualData(title: "h", color: .red, isCollapsed: collapsed))
            }
        case 95..<97:
            let set = [index(), index()]
            let ratio = Bool.random(using: &rng) ? 0.5 : 0.3
            let id = TabSplitID(rawValue: rng.nextUUID())
            return .init(description: "createSplit(at: \(set))") {
                _ = try $0.createSplit(at: set, visualData: TabSplitVisualData(ratio: ratio), id: id)
            }
        case 97:
            guard let split = list.splits.keys.sorted(by: { $0.uuidString < $1.uuidString }).first else { break }
            if Bool.random(using: &rng) { return .init(description: "removeSplit") { _ = try $0.removeSplit(split) } }
            return .init(description: "updateSplit") {
                _ = try $0.updateSplit(split, visualData: TabSplitVisualData(ratio: 0.7, layout: .horizontal))
            }
        default:
            let at = index()
            let webState = WebState(id: WebStateID(rawValue: rng.nextUUID()), createdAt: Date(timeIntervalSince1970: 0))
            return .init(description: "replace(at: \(at))") { _ = try $0.replace(at: at, with: webState) }
        }
        let at = index()
        return .init(description: "remove(at: \(at))") { _ = try $0.remove(at: at) }
    }
}
