import Foundation
import SessionModel
import SessionTestSupport
import Testing
@testable import SessionStorage

/// Long seeded random sequences applied both to the pure model and to a store:
/// after every step the store holds the model's list, and `check` (the same
/// invariant code) finds nothing.
@Suite struct WebStateListPropertyTests {
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func randomSequence_storeEqualsModel_andCheckFindsNothing(seed: UInt64) throws {
        let store = try TemporaryStore.onDisk()
        let browser = try store.browsers.createBrowser().id
        var model = WebStateList()
        var rng = SplitMix64(seed: seed)
        var failures = 0
        for step in 0..<250 {
            let operation = RandomWebStateListOperation.random(for: model, using: &rng)
            var candidate = model
            let modelError: (any Error)?
            do {
                try operation(&candidate)
                modelError = nil
            } catch {
                modelError = error
            }
            do {
                try store.tabs.update(browser) { try operation(&$0) }
                #expect(modelError == nil, "step \(step) \(operation): the store accepted what the model refused")
            } catch {
                failures += 1
                #expect("\(error)" == "\(modelError.map { "\($0)" } ?? "no error")", "step \(step) \(operation)")
            }
            if modelError == nil { model = candidate }
            let stored = try store.tabs.webStateList(in: browser)
            try #require(WebStateListShape(stored) == WebStateListShape(model), "step \(step) \(operation)")
            if step % 50 == 49 {
                try store.reopen()
                try #require(
                    WebStateListShape(try store.tabs.webStateList(in: browser)) == WebStateListShape(model),
                    "after reopening at step \(step)")
                #expect(try SessionStoreFile.check(atPath: store.path!) == [], "step \(step)")
            }
        }
        #expect(failures < 250)
        #expect(try SessionStoreFile.check(atPath: store.path!) == [])
    }
}
