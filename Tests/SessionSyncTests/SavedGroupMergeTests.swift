import Foundation
import SessionModel
import Testing
@testable import SessionSync

/// Issue 39's merge of account-wide saved groups, as a pure function of the records: positions
/// that always fit, a clock that survives skew, a join that is commutative, associative and
/// idempotent, and three devices that converge whatever order they sync in.
@Suite struct SavedGroupMergeTests {
    // MARK: - Positions and the clock

    @Test func positions_alwaysFitBetweenTheirNeighbours_andNeverEndInZero() {
        var generator = SplitMix64(seed: 39)
        var positions: [String] = []
        for _ in 0..<10_000 {
            let slot = Int.random(in: 0...positions.count, using: &generator)
            let before = slot > 0 ? positions[slot - 1] : nil
            let after = slot < positions.count ? positions[slot] : nil
            let made = FractionalPosition.between(before, after)
            #expect(before.map { $0 < made } ?? true, "\(before ?? "start") < \(made)")
            #expect(after.map { made < $0 } ?? true, "\(made) < \(after ?? "end")")
            #expect(!made.isEmpty && made.last != "0")
            positions.insert(made, at: slot)
        }
        // Always at the front or always at the end: a digit every 6 positions (halving) at the
        // front, every 61 at the end, where new tabs go.
        var front: String? = nil
        for _ in 0..<1_000 { front = FractionalPosition.between(nil, front) }
        var end: String? = nil
        for _ in 0..<1_000 { end = FractionalPosition.between(end, nil) }
        #expect((front?.count ?? 0) <= 200 && (end?.count ?? 0) <= 20, "\(front?.count ?? 0), \(end?.count ?? 0)")
        #expect(positions.map(\.count).max()! <= 40, "\(positions.map(\.count).max()!)")
    }

    @Test func clock_neverGoesBack_andComesAfterWhatItSaw() {
        var clock = HybridLogicalClock(device: "b")
        let first = clock.tick(wall: 1_000)
        let second = clock.tick(wall: 900)  // the wall clock stepped back
        #expect(first < second && second.milliseconds == 1_000)
        clock.observe(HybridTimestamp(milliseconds: 5_000, counter: 7, device: "a"), wall: 1_001)
        let third = clock.tick(wall: 1_002)
        #expect(third > HybridTimestamp(milliseconds: 5_000, counter: 7, device: "a"))
        #expect(third.device == "b")
    }

    /// One device's clock runs two days ahead; the server's offset corrects it, so its older rename
    /// loses to the other device's newer one. Without the offset it would win: the reason for it.
    @Test func aClockTwoDaysAhead_correctedByTheServersOffset_doesNotWinWithOldEdits() {
        let twoDays: Int64 = 2 * 86_400_000
        let realEarlier: Int64 = 1_790_000_000_000
        let realLater = realEarlier + 60_000
        func renames(offset: Int64) -> String {
            var ahead = HybridLogicalClock(device: "ahead")
            var right = HybridLogicalClock(device: "right")
            // `ahead` renames first (its clock reads two days on), `right` a minute later.
            let old = LastWriterWins("Old name", at: ahead.tick(wall: realEarlier + twoDays + offset))
            let new = LastWriterWins("New name", at: right.tick(wall: realLater))
            return old.merged(with: new).value
        }
        #expect(renames(offset: -twoDays) == "New name")
        #expect(renames(offset: 0) == "Old name")
    }

    // MARK: - The merge's properties

    @Test func merge_isCommutativeAssociativeAndIdempotent_over100000PairsAndTriples() {
        var generator = SplitMix64(seed: 3_900)
        for _ in 0..<100_000 {
            let a = Self.randomTab(&generator), b = Self.randomTab(&generator), c = Self.randomTab(&generator)
            #expect(a.merged(with: b) == b.merged(with: a))
            #expect(a.merged(with: b).merged(with: c) == a.merged(with: b.merged(with: c)))
            #expect(a.merged(with: a) == a)
            let x = Self.randomHeader(&generator), y = Self.randomHeader(&generator), z = Self.randomHeader(&generator)
            #expect(x.merged(with: y) == y.merged(with: x))
            #expect(x.merged(with: y).merged(with: z) == x.merged(with: y.merged(with: z)))
            #expect(x.merged(with: x) == x)
        }
        // Whole states too (fewer: each holds many records).
        for _ in 0..<2_000 {
            let a = Self.randomState(&generator), b = Self.randomState(&generator), c = Self.randomState(&generator)
            #expect(a.merged(with: b) == b.merged(with: a))
            #expect(a.merged(with: b).merged(with: c) == a.merged(with: b.merged(with: c)))
            #expect(a.merged(with: a) == a)
        }
    }

    // MARK: - Three devices

    /// Three devices edit the same saved groups offline, then sync through a server in every
    /// order: all converge, to what the latest write of every field says, and no tab is lost
    /// unless a delete removed it. Seeds: `SESSIONSTORE_TEST_CONVERGENCE_SEEDS` (10 by default;
    /// the issue's figure is 100).
    @Test func threeDevices_editingOffline_convergeInEveryOrder() throws {
        let seeds = ProcessInfo.processInfo.environment["SESSIONSTORE_TEST_CONVERGENCE_SEEDS"].flatMap(Int.init) ?? 10
        let edits = ProcessInfo.processInfo.environment["SESSIONSTORE_TEST_CONVERGENCE_EDITS"].flatMap(Int.init) ?? 1_000
        var divergences = 0
        for seed in 0..<seeds {
            var simulation = ConvergenceSimulation(seed: UInt64(seed))
            simulation.editOffline(editsPerDevice: edits)
            let expected = simulation.latestWrites()
            var finals: Set<SavedGroupsState> = []
            for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
                let states = simulation.sync(in: order)
                finals.formUnion(states)
                if Set(states).count != 1 || states[0] != expected { divergences += 1 }
            }
            #expect(finals.count == 1, "seed \(seed): \(finals.count) final states")
            // No tab lost: every tab whose latest presence is `present`, in a group whose latest
            // presence is `present`, is shown, in that group.
            let shown = Set(expected.visible.values.flatMap { $0.tabs.map(\.id) })
            for tab in expected.tabs.values where tab.presence.value == .present {
                if expected.groups[tab.group.value]?.presence.value == .present {
                    #expect(shown.contains(tab.id), "seed \(seed): tab \(tab.id) lost")
                }
            }
            #expect(simulation.editCount == 3 * edits)
        }
        #expect(divergences == 0)
    }

    // MARK: - Random records

    private static let devices = ["a", "b", "c"]

    private static func stamp(_ generator: inout SplitMix64) -> HybridTimestamp {
        HybridTimestamp(
            milliseconds: Int64.random(in: 0..<4, using: &generator), counter: Int32.random(in: 0..<2, using: &generator),
            device: devices.randomElement(using: &generator)!)
    }

    private static func text(_ generator: inout SplitMix64) -> LastWriterWins<String> {
        LastWriterWins(["x", "y", "z"].randomElement(using: &generator)!, at: stamp(&generator))
    }

    private static func presence(_ generator: inout SplitMix64) -> LastWriterWins<SavedGroupPresence> {
        LastWriterWins(Bool.random(using: &generator) ? .present : .deleted, at: stamp(&generator))
    }

    static func randomHeader(_ generator: inout SplitMix64, id: String = "g") -> SavedGroupHeader {
        SavedGroupHeader(id: id, title: text(&generator), color: text(&generator), presence: presence(&generator))
    }

    static func randomTab(_ generator: inout SplitMix64, id: String = "t") -> SavedGroupTab {
        SavedGroupTab(
            id: id, group: text(&generator), url: text(&generator), title: text(&generator),
            position: text(&generator), presence: presence(&generator))
    }

    static func randomState(_ generator: inout SplitMix64) -> SavedGroupsState {
        var state = SavedGroupsState()
        for _ in 0..<Int.random(in: 0..<4, using: &generator) {
            state.apply(randomHeader(&generator, id: ["g1", "g2", "g3"].randomElement(using: &generator)!))
        }
        for _ in 0..<Int.random(in: 0..<6, using: &generator) {
            state.apply(randomTab(&generator, id: ["t1", "t2", "t3", "t4"].randomElement(using: &generator)!))
        }
        return state
    }
}

/// Three devices with skewed clocks (corrected by the server's offset, as the client does), each
/// editing its copy of the same saved groups offline; every write also goes to a log, from which
/// ``latestWrites()`` computes, without the merge, what every field should end as.
struct ConvergenceSimulation {
    private var generator: SplitMix64
    private var clocks = ["a", "b", "c"].map { HybridLogicalClock(device: $0) }
    private var devices: [SavedGroupsState]
    private var log: [Write] = []
    private var wall: Int64 = 1_790_000_000_000
    private var nextID = 0
    private(set) var editCount = 0

    /// One field's write: its record and field, the value and its reading.
    private struct Write {
        var record: String
        var field: String
        var value: String
        var stamp: HybridTimestamp
    }

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
        // What all three start from: 4 groups of 5 tabs, written by device a and synced.
        var start = SavedGroupsState()
        devices = []
        for _ in 0..<4 {
            let group = newID("g")
            write(&start, device: 0, group: group, fields: ["title": "Group \(group)", "color": "blue", "presence": "present"])
            var position: String?
            for _ in 0..<5 {
                position = FractionalPosition.between(position, nil)
                addTab(&start, device: 0, group: group, position: position!)
            }
        }
        devices = [start, start, start]
    }

    private mutating func newID(_ prefix: String) -> String {
        nextID += 1
        return "\(prefix)\(nextID)"
    }

    /// The reading of device `device`'s next write: real time moves on, its own clock is off by
    /// up to two days, and the server's offset takes that back out (to the nearest second).
    private mutating func tick(_ device: Int) -> HybridTimestamp {
        wall += Int64.random(in: 0..<50, using: &generator)
        let skew: [Int64] = [0, 2 * 86_400_000, -3_600_000]
        let offsetError = Int64.random(in: -500...500, using: &generator)
        return clocks[device].tick(wall: wall + skew[device] - skew[device] + offsetError)
    }

    private mutating func write(_ state: inout SavedGroupsState, device: Int, group: String, fields: [String: String]) {
        let stamp = tick(device)
        var header = state.groups[group] ?? SavedGroupHeader(
            id: group, title: LastWriterWins("", at: Self.origin), color: LastWriterWins("grey", at: Self.origin),
            presence: LastWriterWins(.deleted, at: Self.origin))
        for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
            log.append(Write(record: group, field: field, value: value, stamp: stamp))
            switch field {
            case "title": header.title = LastWriterWins(value, at: stamp)
            case "color": header.color = LastWriterWins(value, at: stamp)
            default: header.presence = LastWriterWins(value == "present" ? .present : .deleted, at: stamp)
            }
        }
        state.groups[group] = header
    }

    private mutating func writeTab(_ state: inout SavedGroupsState, device: Int, tab: String, fields: [String: String]) {
        let stamp = tick(device)
        var record = state.tabs[tab] ?? SavedGroupTab(
            id: tab, group: LastWriterWins("", at: Self.origin), url: LastWriterWins("", at: Self.origin),
            title: LastWriterWins("", at: Self.origin), position: LastWriterWins("", at: Self.origin),
            presence: LastWriterWins(.deleted, at: Self.origin))
        for (field, value) in fields.sorted(by: { $0.key < $1.key }) {
            log.append(Write(record: tab, field: field, value: value, stamp: stamp))
            switch field {
            case "group": record.group = LastWriterWins(value, at: stamp)
            case "url": record.url = LastWriterWins(value, at: stamp)
            case "title": record.title = LastWriterWins(value, at: stamp)
            case "position": record.position = LastWriterWins(value, at: stamp)
            default: record.presence = LastWriterWins(value == "present" ? .present : .deleted, at: stamp)
            }
        }
        state.tabs[tab] = record
    }

    /// What a record's field holds before any write: older than every reading.
    private static let origin = HybridTimestamp(milliseconds: 0, counter: 0, device: "")

    private mutating func addTab(_ state: inout SavedGroupsState, device: Int, group: String, position: String) {
        let tab = newID("t")
        writeTab(&state, device: device, tab: tab, fields: [
            "group": group, "url": "https://example.org/\(tab)", "title": "Page \(tab)", "position": position,
            "presence": "present",
        ])
    }

    /// Each device makes `editsPerDevice` random edits to its own copy: rename, recolour, add,
    /// remove, move (within a group or to another), delete, reopen.
    mutating func editOffline(editsPerDevice: Int) {
        for device in 0..<3 {
            var state = devices[device]
            for _ in 0..<editsPerDevice {
                let groups = state.groups.keys.sorted()
                let group = groups.randomElement(using: &generator)!
                let shown = state.visible[group]?.tabs ?? []
                switch Int.random(in: 0..<8, using: &generator) {
                case 0: write(&state, device: device, group: group, fields: ["title": "Title \(newID("n"))"])
                case 1:
                    let color = ["grey", "blue", "red", "yellow", "green", "pink", "purple", "cyan", "orange"]
                        .randomElement(using: &generator)!
                    write(&state, device: device, group: group, fields: ["color": color])
                case 2, 3:
                    let slot = Int.random(in: 0...shown.count, using: &generator)
                    let position = Self.position(in: shown, at: slot)
                    addTab(&state, device: device, group: group, position: position)
                case 4:
                    if let tab = shown.randomElement(using: &generator) {
                        writeTab(&state, device: device, tab: tab.id, fields: ["presence": "deleted"])
                    }
                case 5:
                    // Move a tab to a place in its group or in another.
                    guard let tab = shown.randomElement(using: &generator) else { break }
                    let target = groups.randomElement(using: &generator)!
                    let others = (state.visible[target]?.tabs ?? []).filter { $0.id != tab.id }
                    let slot = Int.random(in: 0...others.count, using: &generator)
                    writeTab(&state, device: device, tab: tab.id, fields: [
                        "group": target, "position": Self.position(in: others, at: slot),
                    ])
                case 6: write(&state, device: device, group: group, fields: ["presence": "deleted"])
                default: write(&state, device: device, group: group, fields: ["presence": "present"])
                }
                editCount += 1
            }
            devices[device] = state
        }
    }

    /// A position for a tab put at `slot` among `tabs` (in order).
    private static func position(in tabs: [SavedGroupTab], at slot: Int) -> String {
        // Neighbours with the same position (made at once on two devices) order by id: take the
        // next different one as the upper bound, so the new position is strictly between.
        let before = slot > 0 ? tabs[slot - 1].position.value : nil
        let after = tabs[slot...].map(\.position.value).first { before == nil || $0 > before! }
        return FractionalPosition.between(before, after)
    }

    /// The devices sync through a server in `order`, twice round (the first ones then learn what
    /// the later ones sent): each uploads what it has and takes what the server has.
    func sync(in order: [Int]) -> [SavedGroupsState] {
        var server = SavedGroupsState()
        var states = devices
        for _ in 0..<2 {
            for device in order {
                server = server.merged(with: states[device])
                states[device] = states[device].merged(with: server)
            }
        }
        return states
    }

    /// Every record as its latest write of each field leaves it, from the log alone.
    func latestWrites() -> SavedGroupsState {
        var latest: [String: [String: Write]] = [:]
        for write in log {
            if let known = latest[write.record]?[write.field],
               (known.stamp, known.value) >= (write.stamp, write.value) { continue }
            latest[write.record, default: [:]][write.field] = write
        }
        var state = SavedGroupsState()
        for (record, fields) in latest {
            func text(_ field: String, _ fallback: String) -> LastWriterWins<String> {
                fields[field].map { LastWriterWins($0.value, at: $0.stamp) } ?? LastWriterWins(fallback, at: Self.origin)
            }
            func presence() -> LastWriterWins<SavedGroupPresence> {
                fields["presence"].map { LastWriterWins($0.value == "present" ? .present : .deleted, at: $0.stamp) }
                    ?? LastWriterWins(.deleted, at: Self.origin)
            }
            if record.hasPrefix("g") {
                state.groups[record] = SavedGroupHeader(
                    id: record, title: text("title", ""), color: text("color", "grey"), presence: presence())
            } else {
                state.tabs[record] = SavedGroupTab(
                    id: record, group: text("group", ""), url: text("url", ""), title: text("title", ""),
                    position: text("position", ""), presence: presence())
            }
        }
        return state
    }
}
