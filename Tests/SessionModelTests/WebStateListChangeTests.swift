import SessionModel
import SessionTestSupport
import Testing

@Suite struct WebStateListChangeTests {
    static let names = WebStateListNotation()

    @Test func isEmpty_newChange_isTrue() {
        #expect(WebStateListChange().isEmpty)
        #expect(!WebStateListChange(activeChanged: true).isEmpty)
        #expect(!WebStateListChange(groupsUpdated: [Self.names.groupID("0")]).isEmpty)
    }

    @Test func formUnion_insertedThenRemoved_disappearsFromBoth() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b")
        var change = try list.insert(names.webState("X"), params: .automatic()).change
        change.formUnion(try list.move(from: 2, to: 0))
        change.formUnion(try list.remove(at: 0))
        #expect(change.isEmpty)
    }

    @Test func formUnion_removedAndUpdated_keepsOnlyRemoval() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b c")
        var change = try list.setNavigationIndex(4, forTabAt: 1)
        change.formUnion(try list.move(from: 1, to: 2))
        change.formUnion(try list.remove(at: 2))
        #expect(change.updated.isEmpty)
        #expect(change.moved.isEmpty)
        #expect(change.removed.map(\.webState.id) == [names.webStateID("b")])
    }

    @Test func formUnion_groupCreatedThenDeleted_disappears() throws {
        var (list, names) = try WebStateListNotation.parse("| a b")
        var change = try list.createGroup(at: [0], visualData: TabGroupVisualData(), id: names.groupID("1")).change
        change.formUnion(try list.updateGroup(names.groupID("1"), visualData: TabGroupVisualData(title: "T")))
        change.formUnion(try list.deleteGroup(names.groupID("1")))
        #expect(change.groupsCreated.isEmpty)
        #expect(change.groupsUpdated.isEmpty)
        #expect(change.groupsDeleted.isEmpty)
        #expect(change.updated == [names.webStateID("a")])
    }

    @Test func formUnion_activeReturnsToStart_noActiveChange() throws {
        var (list, _) = try WebStateListNotation.parse("| a* b")
        var change = try list.activate(at: 1)
        change.formUnion(try list.activate(at: 0))
        #expect(!change.activeChanged)
        #expect(change.isEmpty)
    }

    @Test func formUnion_activeChangesTwice_keepsFirstPreviousAndLastNew() throws {
        var (list, names) = try WebStateListNotation.parse("| a* b c")
        var change = try list.activate(at: 1)
        change.formUnion(try list.activate(at: 2))
        #expect(change.activeChanged)
        #expect(change.previousActiveID == names.webStateID("a"))
        #expect(change.newActiveID == names.webStateID("c"))
    }

    @Test func minimalMoves_singleMoveAcrossGroup_reportsOneTab() throws {
        var (list, names) = try WebStateListNotation.parse("| a b c d e f")
        let change = try list.move(from: 5, to: 0)
        #expect(change.moved == [names.webStateID("f")])
    }

    @Test(arguments: 0..<20)
    func moved_randomMutations_isMinimalAndKeepsOthersInOrder(_ seed: Int) throws {
        var mutations = RandomWebStateListMutations(seed: UInt64(seed))
        var list = WebStateList()
        for _ in 0..<150 {
            let before = list
            guard let change = mutations.apply(to: &list) else {
                #expect(list == before, "a refused mutation changed the list")
                continue
            }
            let beforeIDs = Set(before.webStates.map(\.id))
            let afterIDs = Set(list.webStates.map(\.id))
            #expect(change.inserted == afterIDs.subtracting(beforeIDs))
            #expect(change.removedIDs == beforeIDs.subtracting(afterIDs))
            #expect(change.activeChanged == (before.activeWebState?.id != list.activeWebState?.id))
            #expect(!change.isEmpty || before == list, "an empty change hid a difference")
            let excluded = change.moved.union(change.inserted)
            #expect(ChangeChecks.keepsRelativeOrder(from: before, to: list, excluding: excluded))
            for id in change.moved {
                #expect(
                    !ChangeChecks.keepsRelativeOrder(from: before, to: list, excluding: excluded.subtracting([id])),
                    "moved is not minimal"
                )
            }
        }
    }

    @Test(arguments: 0..<10)
    func formUnion_randomBatches_describeWholeBatch(_ seed: Int) throws {
        var mutations = RandomWebStateListMutations(seed: UInt64(1000 + seed))
        var list = WebStateList()
        for _ in 0..<30 {
            let start = list
            var batch = WebStateListChange()
            for _ in 0..<5 {
                if let change = mutations.apply(to: &list) { batch.formUnion(change) }
            }
            let startIDs = Set(start.webStates.map(\.id))
            let endIDs = Set(list.webStates.map(\.id))
            #expect(batch.inserted == endIDs.subtracting(startIDs))
            #expect(batch.removedIDs == startIDs.subtracting(endIDs))
            #expect(batch.activeChanged == (start.activeWebState?.id != list.activeWebState?.id))
            #expect(
                ChangeChecks.keepsRelativeOrder(from: start, to: list, excluding: batch.moved.union(batch.inserted))
            )
            #expect(batch.groupsCreated == Set(list.groups.keys).subtracting(start.groups.keys))
            #expect(batch.groupsDeleted == Set(start.groups.keys).subtracting(list.groups.keys))
        }
    }
}
