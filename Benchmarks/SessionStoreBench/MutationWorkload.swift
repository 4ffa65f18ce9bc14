/// The single mutations the benchmark times, in the order one iteration runs them.
enum MutationKind: Int, CaseIterable, Sendable {
    case insert, move, close, navigate, activate, pin

    var label: String {
        switch self {
        case .insert: "insert tab with opener"
        case .move: "move tab across window"
        case .close: "close tab (recently closed)"
        case .navigate: "commit navigation"
        case .activate: "activate tab (after a nav)"
        case .pin: "pin tab (unpinned after)"
        }
    }

    /// One word, for goal lines and callgrind's labels.
    var name: String {
        switch self {
        case .insert: "insert"
        case .move: "move"
        case .close: "close"
        case .navigate: "navigate"
        case .activate: "activate"
        case .pin: "pin"
        }
    }
}

/// One implementation of a session that the workload mutates: the store or a baseline.
///
/// Each call is one durable change (it has been written when the call returns).
/// Subjects keep the tab order in memory themselves, so the workload never reads
/// the store between timed calls; what that bookkeeping costs is paid in ``settle()``,
/// which the harness calls after each timed call, outside the timed region.
protocol MutationSubject: AnyObject {
    /// The number of open tabs.
    var count: Int { get }
    /// Inserts a new tab opened by the tab at `openerIndex`.
    func insert(openerAt openerIndex: Int) throws
    /// Moves the tab at `from` to `to`.
    func move(from: Int, to: Int) throws
    /// Closes the tab at `index`.
    func close(at index: Int) throws
    /// Commits a new navigation in the tab at `index`.
    func navigate(at index: Int, iteration: Int) throws
    /// Activates the tab at `index`.
    func activate(at index: Int) throws
    /// Pins the tab at `index` (to the end of the pinned tabs), or unpins it (to the end of the list).
    func setPinned(_ pinned: Bool, at index: Int) throws
    /// Applies the last call's change to the subject's own bookkeeping (untimed).
    func settle()
}

extension MutationSubject {
    func settle() {}
}

/// One subject's run of the workload: its own generator (seeded alike for every
/// subject, so all make the same choices) and its samples.
///
/// The benchmark steps the store and its baselines in turn, one iteration each,
/// so that noise from the shared machine falls on all of them alike. Only the
/// subject's call is timed (and, under callgrind, counted: see ``Callgrind``);
/// its bookkeeping settles after.
struct MutationRun {
    let subject: any MutationSubject
    /// The subject's name in callgrind's dump labels, `name/kind`.
    let name: String
    private var random: SplitMix64
    private(set) var samples: [MutationKind: Samples] = [:]

    init(subject: any MutationSubject, name: String = "", seed: UInt64) {
        self.subject = subject
        self.name = name
        random = SplitMix64(seed: seed)
        for kind in MutationKind.allCases { samples[kind] = Samples() }
    }

    /// An unrecorded call: the first call of a subject pays for lazily opened connections.
    func warmUp() throws {
        try subject.activate(at: subject.count / 2)
        subject.settle()
    }

    /// Times one call of `kind`, counts its instructions under callgrind, then settles the subject.
    private mutating func timed(_ kind: MutationKind, _ call: () throws -> Void) throws {
        try samples[kind]!.measure { try Callgrind.collect(call) }
        Callgrind.dump(label: "\(name)/\(kind.name)")
        subject.settle()
    }

    /// Runs the six mutations once, timing each.
    mutating func step(iteration: Int) throws {
        let subject = subject
        let opener = Int.random(in: 0..<subject.count, using: &random)
        try timed(.insert) { try subject.insert(openerAt: opener) }

        // Across the window: from the first tenth to the mirrored place in the last tenth, or back.
        let near = Int.random(in: 0..<max(1, subject.count / 10), using: &random)
        let far = subject.count - 1 - near
        let (from, to) = iteration.isMultiple(of: 2) ? (near, far) : (far, near)
        try timed(.move) { try subject.move(from: from, to: to) }

        let closing = Int.random(in: 0..<subject.count, using: &random)
        try timed(.close) { try subject.close(at: closing) }

        let navigating = Int.random(in: 0..<subject.count, using: &random)
        try timed(.navigate) { try subject.navigate(at: navigating, iteration: iteration) }

        let activating = Int.random(in: 0..<subject.count, using: &random)
        try timed(.activate) { try subject.activate(at: activating) }

        // No tab is pinned between steps: the pinned one lands first and is unpinned, untimed, to the end.
        let pinning = Int.random(in: 0..<subject.count, using: &random)
        try timed(.pin) { try subject.setPinned(true, at: pinning) }
        try subject.setPinned(false, at: 0)
        subject.settle()
    }
}
