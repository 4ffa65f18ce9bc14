/// Wakes the requests waiting on an account (long polls and hint polls) when
/// a commit to it is announced, by this process or, through a ``HintBus``,
/// by another.
///
/// Each account has a generation that every announcement raises; a reader notes
/// the generation before it queries and waits only while it is unchanged, so a
/// commit landing between the query and the wait is not missed. ``wakeAll()``
/// raises every account's generation at once: after the bus lost its connection
/// it cannot know what it missed.
actor ChangeNotifier {
    private var generations: [String: UInt64] = [:]
    private var epoch: UInt64 = 0
    private var waiters: [String: [UInt64: CheckedContinuation<Bool, Never>]] = [:]
    private var nextWaiterID: UInt64 = 0

    /// How many requests are waiting now.
    private(set) var waiting = 0

    /// The account's current generation.
    func generation(of accountID: String) -> UInt64 {
        generations[accountID, default: 0] &+ epoch
    }

    /// Records a commit to the account and wakes its waiters.
    func notify(accountID: String) {
        generations[accountID, default: 0] &+= 1
        guard let woken = waiters.removeValue(forKey: accountID) else { return }
        waiting -= woken.count
        for continuation in woken.values { continuation.resume(returning: true) }
    }

    /// Wakes every waiter of every account.
    func wakeAll() {
        epoch &+= 1
        let woken = waiters
        waiters = [:]
        waiting = 0
        for continuations in woken.values {
            for continuation in continuations.values { continuation.resume(returning: true) }
        }
    }

    /// Waits until the account's generation differs from `generation` (`true`),
    /// or `timeout` passes or the task is cancelled (`false`).
    func wait(accountID: String, since generation: UInt64, timeout: Duration) async -> Bool {
        guard self.generation(of: accountID) == generation else { return true }
        let id = nextWaiterID
        nextWaiterID &+= 1
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.expire(accountID: accountID, waiterID: id)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Cancelled before it waits: the handler below already ran and found nothing.
                guard !Task.isCancelled else { return continuation.resume(returning: false) }
                waiters[accountID, default: [:]][id] = continuation
                waiting += 1
            }
        } onCancel: {
            Task { await self.expire(accountID: accountID, waiterID: id) }
        }
    }

    private func expire(accountID: String, waiterID: UInt64) {
        guard let continuation = waiters[accountID]?.removeValue(forKey: waiterID) else { return }
        if waiters[accountID]?.isEmpty == true { waiters[accountID] = nil }
        waiting -= 1
        continuation.resume(returning: false)
    }
}
