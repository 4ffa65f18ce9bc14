import Foundation

/// At most a few test servers at once. Each server process keeps a pool of up
/// to 20 PostgreSQL connections, and the throwaway cluster takes 200: a hundred
/// tests all starting their server at once ran it out of connections ("too
/// many clients"), and the machine has two cores anyway.
/// `SESSIONSTORE_SYNC_TEST_SERVERS` overrides the number (default 8).
actor ServerSlots {
    static let shared = ServerSlots(
        limit: ProcessInfo.processInfo.environment["SESSIONSTORE_SYNC_TEST_SERVERS"].flatMap(Int.init) ?? 8)

    private let limit: Int
    private var used = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    func acquire() async {
        if used < limit {
            used += 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            used -= 1
        } else {
            // The slot passes straight to the next waiter.
            waiting.removeFirst().resume()
        }
    }
}

/// Runs `body` holding one of the ``ServerSlots``: for anything that starts a
/// server process of its own.
func withServerSlot<T: Sendable>(_ body: () async throws -> T) async throws -> T {
    await ServerSlots.shared.acquire()
    do {
        let value = try await body()
        await ServerSlots.shared.release()
        return value
    } catch {
        await ServerSlots.shared.release()
        throw error
    }
}
