/// Wakes long-polling readers of an account right after an upload to it commits.
///
/// Each account has a generation that every commit raises; a reader notes the
/// generation before it queries and waits only while it is unchanged, so a
/// commit landing between the query and the wait is not missed.
actor ChangeNotifier {
    private var generations: [String: UInt64] = [:]
    private var waiters: [String: [UInt64: CheckedContinuation<Bool, Never>]] = [:]
    private var nextWaiterID: UInt64 = 0

    /// The account's current generation.
    func generation(of accountID: String) -> UInt64 {
        generations[accountID, default: 0]
    }

    /// Records a commit to the account and wakes its waiters.
    func notify(accountID: String) {
        generations[accountID, default: 0] &+= 1
        guard let waiting = waiters.removeValue(forKey: accountID) else { return }
        for continuation in waiting.values { continuation.resume(returning: true) }
    }

    /// Waits until the account's generation differs from `generation` (`true`)
    /// or `timeout` passes (`false`).
    func wait(accountID: String, since generation: UInt64, timeout: Duration) async -> Bool {
        guard generations[accountID, default: 0] == generation else { return true }
        let id = nextWaiterID
        nextWaiterID &+= 1
        let timer = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            await self?.expire(accountID: accountID, waiterID: id)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            waiters[accountID, default: [:]][id] = continuation
        }
    }

    private func expire(accountID: String, waiterID: UInt64) {
        guard let continuation = waiters[accountID]?.removeValue(forKey: waiterID) else { return }
        if waiters[accountID]?.isEmpty == true { waiters[accountID] = nil }
        continuation.resume(returning: false)
    }
}
