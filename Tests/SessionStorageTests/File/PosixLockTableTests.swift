import Testing
@testable import SessionStorage

/// The kernel's lock table, read instead of opening a store's `-shm` (issue 29).
@Suite struct PosixLockTableTests {
    /// Tests that holders are found by inode and byte range, waiters count, and other lock kinds do not.
    @Test func holders_matchInodeAndRange() {
        let table = PosixLockTable("""
            1: POSIX  ADVISORY  READ 4242 fd:01:777 128 128
            1: -> POSIX  ADVISORY  WRITE 5151 fd:01:777 128 128
            2: POSIX  ADVISORY  WRITE 6161 fd:01:777 120 127
            3: OFDLCK ADVISORY  READ -1 fd:01:777 128 128
            4: FLOCK  ADVISORY  WRITE 7171 fd:01:777 0 EOF
            5: POSIX  ADVISORY  READ 8181 fd:01:888 0 EOF
            6: POSIX  ADVISORY  READ 9191 00:2d:777 100 EOF
            """)
        #expect(table.holders(ofInode: 777, byte: 128) == [4242, 5151, 9191])
        #expect(table.holders(ofInode: 888, byte: 128) == [8181])
        #expect(table.holders(ofInode: 999, byte: 128).isEmpty)
    }

    /// Tests that a line the table never prints is skipped, not misread.
    @Test func malformedLines_areSkipped() {
        #expect(PosixLockTable("garbage\n\n1: POSIX ADVISORY READ x fd:01:777 128 128").locks.isEmpty)
    }
}
