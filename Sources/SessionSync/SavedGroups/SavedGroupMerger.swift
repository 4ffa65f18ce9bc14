import Foundation
import SessionStorage

/// The device side of saved-group sync, in one transaction of the store
/// (docs/sync-protocol.md, "Saved groups"):
///
/// 1. records received from the server are merged into the ones the store keeps;
/// 2. each saved group changed here since its last merge (its rows differ from its base) becomes
///    writes of the fields that changed, stamped by the hybrid clock at the time of the change
///    (the store's mark, plus the server's clock offset), merged into its records, which are then
///    due for upload;
/// 3. the merged groups are written into the rows, as any other change of the saved groups, and
///    become the groups' new bases.
///
/// So a local edit is never overwritten by a merge before it was stamped: both happen in the
/// transaction that reads the rows.
package struct SavedGroupMerger: Sendable {
    /// A record as the server sent it, opened.
    package struct Incoming: Sendable {
        package var recordID: String
        package var version: Int64
        package var record: SavedGroupRecord

        /// A received record.
        package init(recordID: String, version: Int64, record: SavedGroupRecord) {
            self.recordID = recordID
            self.version = version
            self.record = record
        }
    }

    /// What one run did.
    package struct Outcome: Sendable, Equatable {
        /// Records this device's edits wrote to (each due for upload).
        package var recordsWritten = 0
        /// Groups whose rows the merge changed.
        package var groupsWritten = 0
    }

    let sealer: SavedGroupSealer
    let device: String

    /// A merger for `device`'s saved groups, with the account's record ids.
    package init(sealer: SavedGroupSealer, device: String) {
        self.sealer = sealer
        self.device = device
    }

    /// Runs the three steps over `rows`: `wall` is the server's time now, in milliseconds;
    /// `offset` the server's clock minus the clock of the store's marks, in milliseconds.
    ///
    /// Without `writingRows`, only the first step runs, and each group the records touched is
    /// marked (a mark of a local edit keeps its time): a fetch of many pages merges each page's
    /// records as it comes, and writes the rows once, at its end; the marks carry that over a
    /// crash in between.
    package func run(
        _ rows: SavedGroupRows, incoming: [Incoming], wall: Int64, offset: Int64, writingRows: Bool = true
    ) throws -> Outcome {
        var outcome = Outcome()
        let kept = try rows.clock()
        var clock = HybridLogicalClock(
            device: device,
            last: kept.milliseconds > 0
                ? HybridTimestamp(milliseconds: kept.milliseconds, counter: kept.counter, device: device) : nil)
        var touched = Set<String>()

        // 1. What the server sent.
        for item in incoming {
            let stored = try rows.record(item.recordID)
            var merged = item.record
            if let stored, let known = try? SavedGroupRecord.decoded(Data(stored.payload.utf8), kind: stored.kind),
               known.kind == item.record.kind
            {
                merged = known.merged(with: item.record)
                touched.insert(stored.groupID)
            }
            for stamp in item.record.stamps { clock.observe(stamp, wall: wall) }
            touched.insert(merged.groupID)
            try rows.put(StoredSavedGroupRecord(
                recordID: item.recordID, kind: merged.kind, localID: merged.localID, groupID: merged.groupID,
                version: max(stored?.version ?? 0, item.version), payload: try Self.text(merged),
                dirty: stored?.dirty ?? false))
        }

        guard writingRows else {
            for group in touched { try rows.touch(group, at: wall - offset) }
            if let last = clock.last {
                try rows.setClock(milliseconds: last.milliseconds, counter: last.counter)
            }
            return outcome
        }

        // 2. This device's edits; 3. the merge into the rows (moves between groups before removals).
        let marks = try rows.marks()
        var wanted: [String: SavedGroupSnapshot?] = [:]
        for group in touched.union(marks.keys).sorted() {
            let local = try rows.local(group)
            var state = try GroupRecords(rows.records(inGroup: group))
            let base = try rows.base(group)
            if marks[group] != nil || local != base {
                let at = marks[group].map { $0 + offset } ?? wall
                var writes = Writes(group: group, clock: clock, at: at)
                writes.diff(local: local, base: base, state: state)
                clock = writes.clock
                for record in writes.records {
                    let recordID = sealer.recordID(kind: record.kind, localID: record.localID)
                    let stored = try rows.record(recordID)
                    var merged = record
                    if let stored, let known = try? SavedGroupRecord.decoded(Data(stored.payload.utf8), kind: stored.kind) {
                        merged = known.merged(with: record)
                    }
                    try rows.put(StoredSavedGroupRecord(
                        recordID: recordID, kind: merged.kind, localID: merged.localID, groupID: merged.groupID,
                        version: stored?.version ?? 0, payload: try Self.text(merged), dirty: true))
                    outcome.recordsWritten += 1
                }
                state = try GroupRecords(rows.records(inGroup: group))
            }
            // A group left with no tab (its tabs removed on several devices at once) stays in the
            // account, but the rows hold no empty group: it shows again once a tab joins it.
            var visible = state.visible(group).flatMap { $0.tabs.isEmpty ? nil : $0 }
            // A page this device holds whose URL the records carry cut (``Writes/fitting(_:)``) stays.
            if let local, var shown = visible {
                let held = Dictionary(local.tabs.map { ($0.id, $0.url) }, uniquingKeysWith: { first, _ in first })
                for index in shown.tabs.indices {
                    if let url = held[shown.tabs[index].id], url != shown.tabs[index].url,
                       Writes.fitting(url) == shown.tabs[index].url
                    {
                        shown.tabs[index].url = url
                    }
                }
                visible = shown
            }
            wanted[group] = .some(visible)
            if visible != local {
                if let visible { try rows.write(group, wanted: visible) }
                outcome.groupsWritten += 1
            }
        }
        for (group, visible) in wanted {
            try rows.removeOthers(group, wanting: visible)
        }
        for group in wanted.keys {
            try rows.setBase(group, try rows.local(group))
            try rows.clearMark(group)
        }
        if let last = clock.last {
            try rows.setClock(milliseconds: last.milliseconds, counter: last.counter)
        }
        return outcome
    }

    /// A record's payload as the store keeps it.
    static func text(_ record: SavedGroupRecord) throws -> String {
        String(decoding: try record.encoded(), as: UTF8.self)
    }
}

/// The merged records of one group: its header and the tabs that name it.
private struct GroupRecords {
    var header: SavedGroupHeader?
    var tabs: [String: SavedGroupTab] = [:]

    init(_ stored: [StoredSavedGroupRecord]) throws {
        for record in stored {
            switch try SavedGroupRecord.decoded(Data(record.payload.utf8), kind: record.kind) {
            case .header(let header): self.header = header
            case .tab(let tab): tabs[tab.id] = tab
            }
        }
    }

    /// The group as the merge shows it, or `nil` when it does not exist.
    func visible(_ group: String) -> SavedGroupSnapshot? {
        guard let header else { return nil }
        var state = SavedGroupsState()
        state.apply(header)
        for tab in tabs.values { state.apply(tab) }
        guard let shown = state.visible[group] else { return nil }
        return SavedGroupSnapshot(
            id: group, title: shown.title, color: shown.color,
            tabs: shown.tabs.map { .init(id: $0.id, url: $0.url.value, title: $0.title.value) })
    }
}

/// The writes that make the merged records say what the rows say, for the fields the rows changed.
private struct Writes {
    let group: String
    var clock: HybridLogicalClock
    let at: Int64
    var records: [SavedGroupRecord] = []

    init(group: String, clock: HybridLogicalClock, at: Int64) {
        self.group = group
        self.clock = clock
        self.at = at
    }

    private mutating func stamp() -> HybridTimestamp {
        clock.tick(wall: at)
    }

    /// The edits from `base` to `local`, as writes of the fields whose merged values differ.
    mutating func diff(local: SavedGroupSnapshot?, base: SavedGroupSnapshot?, state: GroupRecords) {
        let header = state.header
        guard let local else {
            // Deleted or reopened here: the group's presence, if the merge still shows it.
            if base != nil, header?.presence.value == .present {
                let write = stamp()
                records.append(.header(SavedGroupHeader(
                    id: group, title: header!.title, color: header!.color,
                    presence: LastWriterWins(.deleted, at: write))))
            }
            return
        }
        // The header: fields new here or changed since the base, and differing from the merge.
        var fields = 0
        var next = header ?? SavedGroupHeader(
            id: group, title: LastWriterWins(local.title, at: HybridTimestamp.origin),
            color: LastWriterWins(local.color, at: HybridTimestamp.origin),
            presence: LastWriterWins(.deleted, at: HybridTimestamp.origin))
        // Present: new to the merge, or saved here anew (a reopen of a deleted group). A group this
        // device already had is never revived by an edit: only by saving it again.
        if header == nil || (base == nil && header?.presence.value != .present) {
            next.presence = LastWriterWins(.present, at: stamp())
            fields += 1
        }
        if base?.title != local.title || base == nil, header == nil || header?.title.value != local.title {
            next.title = LastWriterWins(local.title, at: stamp())
            fields += 1
        }
        if base?.color != local.color || base == nil, header == nil || header?.color.value != local.color {
            next.color = LastWriterWins(local.color, at: stamp())
            fields += 1
        }
        if fields > 0 { records.append(.header(next)) }

        // The tabs.
        let baseTabs = Dictionary((base?.tabs ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let localIDs = Set(local.tabs.map(\.id))
        for removed in base?.tabs ?? [] where !localIDs.contains(removed.id) {
            guard var tab = state.tabs[removed.id], tab.presence.value == .present, tab.group.value == group else {
                continue
            }
            tab.presence = LastWriterWins(.deleted, at: stamp())
            records.append(.tab(tab))
        }
        // A tab the rows still hold here, whose records moved it to another group since the base:
        // that move is not undone, and the tab takes no part in this group's order.
        var here = local
        here.tabs.removeAll { baseTabs[$0.id] != nil && state.tabs[$0.id] == nil }
        let positions = newPositions(local: here, base: base, state: state)
        for item in here.tabs {
            let known = state.tabs[item.id]
            let before = baseTabs[item.id]
            let origin = HybridTimestamp.origin
            var tab = known ?? SavedGroupTab(
                id: item.id, group: LastWriterWins(group, at: origin), url: LastWriterWins(item.url, at: origin),
                title: LastWriterWins(item.title, at: origin), position: LastWriterWins("", at: origin),
                presence: LastWriterWins(.deleted, at: origin))
            var changed = false
            // Added here (to this group): its group and presence. A tab the merge removed is not
            // brought back by an edit of its group.
            if before == nil, known == nil || tab.group.value != group || tab.presence.value != .present {
                tab.group = LastWriterWins(group, at: stamp())
                tab.presence = LastWriterWins(.present, at: stamp())
                changed = true
            }
            let url = Self.fitting(item.url)
            if before?.url != item.url, known == nil || known?.url.value != url {
                tab.url = LastWriterWins(url, at: stamp())
                changed = true
            }
            if before?.title != item.title, known == nil || known?.title.value != item.title {
                tab.title = LastWriterWins(item.title, at: stamp())
                changed = true
            }
            if let position = positions[item.id] {
                tab.position = LastWriterWins(position, at: stamp())
                changed = true
            }
            if changed { records.append(.tab(tab)) }
        }
    }

    /// The longest URL a tab record carries, in UTF-8 bytes: a record must stay under the
    /// server's 16 KiB, and a `data:` URL can be megabytes.
    static let longestURL = 8_192

    /// `url`, or its origin (`scheme://host[:port]/`) when it is longer than ``longestURL``, as
    /// per-device tab records trim a page too long to send.
    static func fitting(_ url: String) -> String {
        guard url.utf8.count > longestURL else { return url }
        guard let components = URLComponents(string: url), let scheme = components.scheme else { return "about:blank" }
        guard let host = components.host else { return "\(scheme):" }
        return "\(scheme)://\(host)\(components.port.map { ":\($0)" } ?? "")/"
    }

    /// New positions for the tabs whose order the rows changed: the tabs of the longest run whose
    /// merged positions already ascend in the rows' order keep theirs; each other gets one between
    /// its neighbours. Nothing when the rows' order is the base's and no tab is new.
    private func newPositions(
        local: SavedGroupSnapshot, base: SavedGroupSnapshot?, state: GroupRecords
    ) -> [String: String] {
        let baseIDs = (base?.tabs ?? []).map(\.id)
        let localIDs = local.tabs.map(\.id)
        let baseSet = Set(baseIDs), localSet = Set(localIDs)
        let reordered = localIDs.filter(baseSet.contains) != baseIDs.filter(localSet.contains)
        let added = localIDs.contains { !baseSet.contains($0) }
        guard reordered || added else { return [:] }
        // Each tab's merged position, if it is in this group.
        let known: [String?] = localIDs.map { id in
            guard let tab = state.tabs[id], tab.group.value == group, tab.presence.value == .present,
                  !tab.position.value.isEmpty
            else { return nil }
            return tab.position.value
        }
        let kept = Self.longestAscending(known)
        var result: [String: String] = [:]
        var previous: String?
        for (index, id) in localIDs.enumerated() {
            if kept.contains(index), let position = known[index] {
                previous = position
                continue
            }
            let next = kept.filter { $0 > index }.min().flatMap { known[$0] }
            let position = FractionalPosition.between(previous, next)
            result[id] = position
            previous = position
        }
        return result
    }

    /// The indexes of a longest strictly ascending run of the known positions.
    static func longestAscending(_ positions: [String?]) -> Set<Int> {
        var length = [Int](repeating: 0, count: positions.count)
        var previous = [Int?](repeating: nil, count: positions.count)
        var best: Int?
        for index in positions.indices {
            guard let position = positions[index] else { continue }
            length[index] = 1
            for earlier in 0..<index {
                guard let before = positions[earlier], before < position, length[earlier] + 1 > length[index] else { continue }
                length[index] = length[earlier] + 1
                previous[index] = earlier
            }
            if best.map({ length[index] > length[$0] }) ?? true { best = index }
        }
        var result = Set<Int>()
        var cursor = best
        while let index = cursor {
            result.insert(index)
            cursor = previous[index]
        }
        return result
    }
}

extension HybridTimestamp {
    /// A reading before every other: the stamp of a field no device has written.
    static let origin = HybridTimestamp(milliseconds: 0, counter: 0, device: "")
}

extension SavedGroupRecord {
    /// Both records' writes, field by field.
    ///
    /// - Precondition: both are of one kind and one id.
    func merged(with other: Self) -> Self {
        switch (self, other) {
        case (.header(let left), .header(let right)): .header(left.merged(with: right))
        case (.tab(let left), .tab(let right)): .tab(left.merged(with: right))
        default: preconditionFailure("merging records of two kinds")
        }
    }

    /// The group it belongs to (a header: its own).
    var groupID: String {
        switch self {
        case .header(let header): header.id
        case .tab(let tab): tab.group.value
        }
    }

    /// Every field's stamp.
    var stamps: [HybridTimestamp] {
        switch self {
        case .header(let header): [header.title.stamp, header.color.stamp, header.presence.stamp]
        case .tab(let tab):
            [tab.group.stamp, tab.url.stamp, tab.title.stamp, tab.position.stamp, tab.presence.stamp]
        }
    }
}
