import Foundation
import SessionConsumers
import SessionModel
import SessionStorage
import SessionTestSupport
import Testing

@testable import SessionMediators

/// The archive's and the saved groups' own observations (issue 38): each pushes, on the main
/// queue, its list first and then every change with a diff that turns one list into the next.
@MainActor
@Suite struct ArchiveAndSavedGroupsMediatorTests {
    @Test func archivedTabsMediator_pushesArchivingAndRestoring() async throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("| a b* c")
        let archive = SQLiteTabArchiveRepository(database: store.database)
        let consumer = RecordingArchivedTabsConsumer()
        let mediator = ArchivedTabsMediator(archive: archive, consumer: consumer)
        try await consumer.log.wait(for: "the configuration") { $0.count == 1 }
        #expect(consumer.log.events == [ArchivedTabsSnapshot()])

        try await archive.archive(olderThan: Date(), in: browser, exempting: ArchiveExemptions())
        try await consumer.log.wait(for: "the archive") { $0.last??.items.count == 2 }
        #expect(consumer.log.events.last??.items.map(\.id) == [names.webStateID("a"), names.webStateID("c")])

        // A change elsewhere in the store is not pushed.
        try await store.tabs.activate(in: browser, at: 0)
        try await archive.restore([names.webStateID("c")], to: nil, placement: .end)
        try await consumer.log.wait(for: "the restore") { $0.last??.items.count == 1 }
        #expect(!consumer.log.events.contains(nil), "a diff did not fit")
        #expect(consumer.log.events.count == 3)
        mediator.disconnect()
    }

    @Test func savedTabGroupsMediator_pushesSaveRenameAndReopen() async throws {
        let store = try TemporaryStore.onDisk()
        let (browser, names) = try store.seed("| a* [ 0 b c ]")
        let saved = SQLiteSavedTabGroupRepository(database: store.database)
        let consumer = RecordingSavedTabGroupsConsumer()
        let mediator = SavedTabGroupsMediator(savedGroups: saved, consumer: consumer)
        try await consumer.log.wait(for: "the configuration") { $0.count == 1 }

        try await saved.saveAndClose(names.groupID("0"), in: browser)
        try await consumer.log.wait(for: "the saved group") { $0.last??.items.count == 1 }
        try await saved.update(names.groupID("0"), visualData: TabGroupVisualData(title: "Later", color: .red))
        try await consumer.log.wait(for: "the rename") { $0.last??.items.first?.visualData.title == "Later" }
        try await saved.reopen(names.groupID("0"), in: browser)
        try await consumer.log.wait(for: "the reopen") { $0.last??.items.isEmpty == true }
        #expect(!consumer.log.events.contains(nil), "a diff did not fit")
        #expect(consumer.log.events.count == 4)
        mediator.disconnect()
    }
}
