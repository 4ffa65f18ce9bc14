import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

@Suite struct StoreObservationTests {
    @Test(arguments: TemporaryStore.Kind.allCases)
    func observe_deliversInitialValueOnce_thenOneValuePerChange(kind: TemporaryStore.Kind) throws {
        let store = try kind.make()
        let (browser, names) = try store.seed("| a* b")
        let recorder = ValueRecorder<String>()
        let observation = store.tabs.observe(browser) { result in
            recorder.record((try? result.get()).map { names.format($0.list) } ?? "error")
        }
        #expect(recorder.wait { $0.count >= 1 })
        try store.tabs.insert(names.webState("x"), in: browser, params: .automatic())
        #expect(recorder.wait { $0.last == "| a* b x" })
        try store.tabs.update(browser) { list in
            try list.activate(at: 1)
            try list.move(from: 1, to: 0)
        }
        #expect(recorder.wait { $0.last == "| b* a x" })
        observation.cancel()
        try store.tabs.close(in: browser, at: 0)
        #expect(recorder.recorded == ["| a* b", "| a* b x", "| b* a x"])
    }

    @Test func observe_seesAnotherProcessesWrite_withinTheDocumentedDelay() throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("| a*")
        let recorder = ValueRecorder<String>()
        let observation = store.tabs.observe(browser) { result in
            recorder.record((try? result.get()).map { names.format($0.list) } ?? "error")
        }
        defer { observation.cancel() }
        #expect(recorder.wait { $0 == ["| a*"] })
        // A separate connection with its own GRDB pool stands for another process.
        let other = try SessionDatabase.open(atPath: store.path!)
        try SQLiteWebStateListRepository(database: other).insert(names.webState("z"), in: browser, params: .automatic())
        // How soon is the benchmark's to measure; here, only that it comes.
        #expect(recorder.wait(timeout: 5) { $0.last == "| a* z" })
        try other.close()
    }

    @Test func snapshots_carryCurrentPages_andEndWhenTheBrowserCloses() async throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("| a*")
        let tab = names.webStateID("a")
        try await store.histories.commit(NavigationItem(url: "https://a.example/", title: "A"), in: tab)
        let tabs = store.tabs
        let browsers = store.browsers
        let pages = try await withTimeout(5, "the first snapshot") {
            var iterator = tabs.snapshots(of: browser).makeAsyncIterator()
            let first = try await iterator.next()
            try await browsers.closeBrowser(browser)
            // A closed browser ends the sequence normally, not with an error.
            while try await iterator.next() != nil {}
            return first?.pages
        }
        #expect(pages == [tab: PageSummary(title: "A", url: "https://a.example/")])
    }

    @Test func observeBrowsers_reportsCountsAndActiveTab() throws {
        let store = try TemporaryStore.inMemory()
        let recorder = ValueRecorder<[Int]>()
        let observation = store.browsers.observeBrowsers { result in
            recorder.record((try? result.get())?.map(\.tabCount) ?? [-1])
        }
        defer { observation.cancel() }
        #expect(recorder.wait { $0 == [[]] })
        let (browser, _) = try store.seed("| a* b")
        #expect(recorder.wait { $0.last == [2] })
        try store.tabs.close(in: browser, at: 0)
        #expect(recorder.wait { $0.last == [1] })
        #expect(try store.browsers.browserSummaries().first?.activeTab != nil)
    }
}
