import Dispatch
import Foundation
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

/// The `async` forms: they run on the store's writer queue, and cancellation
/// decides only before a write starts.
@Suite struct AsyncAccessTests {
    @Test(arguments: TemporaryStore.Kind.allCases)
    func asyncMutation_isWritten_andReadsBackThroughBothForms(kind: TemporaryStore.Kind) async throws {
        let store = try kind.make()
        let tabs = store.tabs
        let browser = try await store.browsers.createBrowser().id
        let tab = WebState()
        let index = try await tabs.insert(
            tab, in: browser, params: .automatic().activate(), navigatingTo: NavigationItem(url: "https://a.example/"))
        #expect(index == 0)
        #expect(try await tabs.webStateList(in: browser).webStates.map(\.id) == [tab.id])
        #expect(try synchronously { try tabs.webStateList(in: browser) }.activeIndex == 0)
        #expect(try await store.histories.history(of: tab.id).count == 1)
    }

    /// A task cancelled while its write waits behind another one: the write never starts.
    @Test func cancelledBeforeTheWriteStarts_throwsCancellation_andWritesNothing() async throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("| a*")
        let tabs = store.tabs
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        // Another thread's write holds the writer queue until released.
        let blocker = Thread {
            try? tabs.update(browser) { _ in
                holding.signal()
                release.wait()
            }
        }
        blocker.start()
        await wait(for: holding)
        let tab = WebState()
        let task = Task { try await tabs.insert(tab, in: browser, params: .automatic()) }
        task.cancel()
        release.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await tabs.webStateList(in: browser).index(of: tab.id) == nil)
    }

    /// A task cancelled once its write has started: the write completes, is kept, and returns its result.
    @Test func cancelledAfterTheWriteStarted_completes_andIsKept() async throws {
        let store = try TemporaryStore.onDisk()
        let (browser, _) = try store.seed("| a*")
        let tabs = store.tabs
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let tab = WebState()
        let task = Task {
            try await tabs.update(browser) { list in
                started.signal()
                proceed.wait()
                return try list.insert(tab, params: .automatic()).index
            }
        }
        await wait(for: started)
        task.cancel()
        proceed.signal()
        #expect(try await task.value == 1)
        try store.reopen()
        #expect(try await store.tabs.webStateList(in: browser).index(of: tab.id) == 1)
    }

    /// A failure reaches the caller of the async form as the same typed error as the sync form's.
    @Test func asyncFailure_isTheTypedError() async throws {
        let store = try TemporaryStore.inMemory()
        let (browser, _) = try store.seed("| a*")
        await #expect(throws: WebStateListError.indexOutOfRange(index: 5, count: 1)) {
            try await store.tabs.move(in: browser, from: 5, to: 0)
        }
        let unknown = BrowserID()
        await #expect(throws: StorageError.unknownBrowser(unknown.uuidString)) {
            try await store.tabs.activate(in: unknown, at: 0)
        }
    }

    /// Waits for `semaphore` without blocking a cooperative thread.
    private func wait(for semaphore: DispatchSemaphore) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                semaphore.wait()
                continuation.resume()
            }
        }
    }
}
