import Crypto
import Foundation
@_spi(SyncInternals) import SessionStorage
import SessionModel

/// Syncs one store with its account's other devices through a sync server.
///
/// ``sync()`` uploads what the outbox holds, sends the commands due, fetches
/// what other devices uploaded and applies the commands sent to this device,
/// at once. ``run()`` keeps doing so until its task is cancelled: it uploads a
/// change as soon as it is committed (the changes of a burst are coalesced into
/// a few uploads a second; see ``Configuration/debounce``), sends a
/// command as soon as its undo window ends, and waits on the server for a hint
/// that something changed (`GET /v1/hints`), then pulls it the way a cold start
/// does.
///
/// Commands (``sendTab(_:to:undoWindow:)``, ``closeRemoteTab(_:undoWindow:)``)
/// wait in the store until the server has them, so a quit or a crash inside the
/// undo window loses none; ``undo(_:)`` takes one back before it leaves.
///
/// Every record is sealed before it leaves (docs/sync-protocol.md); the server
/// sees sizes, ids and times only.
///
/// ## Topics
/// - ``init(storage:keyStore:serverURL:transport:configuration:deviceName:applier:clock:)``
/// - ``serverURL``
/// - ``sync()``
/// - ``run()``
/// - ``status``
/// - ``Configuration``
/// ### Commands
/// - ``sendTab(_:to:undoWindow:)``
/// - ``closeRemoteTab(_:undoWindow:)``
/// - ``undo(_:)``
/// ### Devices and the account
/// - ``serverDevices()``
/// - ``revoke(device:)``
/// - ``deleteAccount()``
public actor SyncClient {
    /// How the client paces itself.
    public struct Configuration: Sendable, Hashable {
        /// A fixed wait before every upload, or zero (the default) to pace uploads instead.
        ///
        /// At zero, ``SyncClient/run()`` uploads the first change after a quiet
        /// period at once and coalesces the changes of a burst (at most 4 uploads a
        /// second while it lasts, each change waiting 250 ms at most). A positive
        /// value brings back the debounce of earlier versions, whose default was 1 s:
        /// every upload waits that long after the change that woke it.
        public var debounce: Duration = .zero
        /// How long one hint poll waits on the server, in seconds.
        public var longPollSeconds = 55
        /// How long a remote close waits before it leaves, so that the user can
        /// undo it; sent tabs leave at once. 0 in tests and the command.
        public var undoWindow: Duration = .seconds(5)
        /// Records per upload.
        public var batchRecords = 1000
        /// Bytes of sealed records per upload.
        public var batchBytes = 4 * 1024 * 1024 - 64 * 1024
        /// How far past a version in use the version floor kept with the keys is raised.
        public var versionBlock: Int64 = 10_000

        /// The default configuration.
        public init() {}
    }

    let storage: SyncStorage
    private let keyStore: any SyncKeyStore
    var credentials: SyncCredentials
    private let sealer: RecordSealer
    private let commandSealer: CommandSealer
    private let applier: IncomingCommandApplier?
    let server: SyncServerConnection
    let configuration: Configuration
    /// The last status.
    public private(set) var status = SyncStatus()
    /// The server's URL this client syncs with.
    public nonisolated let serverURL: URL
    /// Whether an upload is under way.
    private var uploading = false
    /// Syncs under way (the two loops of ``run()`` and ``sync()`` may overlap).
    private var running = 0
    /// What the last upload and the last fetch failed with, if they did.
    private var uploadError: SyncError?
    private var fetchError: SyncError?
    /// Whether commands are being sent or applied (one pass of each at a time).
    private var sendingCommands = false
    private var receivingCommands = false
    /// Whether this client checked the server's id and the account's generation.
    private var prepared = false
    /// This device's clock.
    let clock: @Sendable () -> Date
    /// Whether the server keeps account-wide records (protocol version 3): saved groups sync only then.
    var savedGroupsSupported = false
    /// The server's `sweep_device_days` (from `/v1/info`, read by ``prepare()``; 180 when it does not
    /// say), never below ``shortestSweepDays``: a server that says 0 would make any deletion look like a sweep.
    private var sweepDays = 180

    /// A client for the store behind `storage`, with the credentials `keyStore` keeps.
    ///
    /// Turns sync on in the store when it is off or names another device (a store
    /// brought back from a backup, say); the next sync then uploads everything.
    ///
    /// Commands from other devices are applied only when `applier` is given;
    /// without one they wait on the server.
    ///
    /// `clock` is this device's clock (tests pass a skewed one): the client keeps its
    /// offset from the server's, so a device days off still syncs.
    ///
    /// - Throws: ``SyncError/notPaired(path:)`` when `keyStore` holds no credentials.
    public init(
        storage: SyncStorage, keyStore: any SyncKeyStore, serverURL: URL,
        transport: any SyncTransport = URLSessionSyncTransport(), configuration: Configuration = Configuration(),
        deviceName: String? = nil, applier: IncomingCommandApplier? = nil,
        clock: @escaping @Sendable () -> Date = Date.init
    ) throws {
        guard let credentials = try keyStore.load() else {
            throw SyncError.notPaired(path: (keyStore as? SyncKeyFile)?.path ?? "the key store")
        }
        let state = try storage.state()
        if !state.isEnabled || state.deviceID != credentials.device.deviceID
            || state.accountID != credentials.account.accountID
        {
            try storage.enable(
                accountID: credentials.account.accountID, deviceID: credentials.device.deviceID,
                deviceName: deviceName ?? (state.deviceName.isEmpty ? credentials.deviceName : state.deviceName),
                formFactor: state.formFactor == "unknown" ? credentials.formFactor : state.formFactor)
        }
        // The first server this store syncs with is remembered at once (the command's default), even
        // if it cannot be reached yet; a change of server is decided by its id, in `prepare()`.
        if state.serverURL == nil { try storage.setServerURL(serverURL.absoluteString, anotherServer: false) }
        self.storage = storage
        self.keyStore = keyStore
        self.credentials = credentials
        self.sealer = RecordSealer(account: credentials.account)
        self.commandSealer = CommandSealer(account: credentials.account)
        self.applier = applier
        self.server = SyncServerConnection(
            baseURL: serverURL, transport: transport, credentials: credentials, clock: clock)
        self.configuration = configuration
        self.clock = clock
        self.serverURL = serverURL
    }

    /// Before the first call of this client: asks the server for its id, and registers
    /// this device, checking the account.
    ///
    /// - The cursor counts the commits of one server (its id, from `GET /v1/info`,
    ///   whatever URL reaches it); another server means a fresh fetch and a full sync.
    /// - A device that joined the account before (its generation is kept with the
    ///   keys, or it has read from this server) never makes it again: a missing account
    ///   or another generation is ``SyncError/accountDeleted(serverURL:)``.
    /// - A counter below this device's cursor means the server lost commits the device
    ///   saw (restored from an older backup): ``SyncError/accountRestored(serverURL:serverCounter:cursor:)``.
    ///
    /// Nothing is uploaded or fetched before these checks pass.
    private func prepare() async throws {
        guard !prepared else { return }
        let url = serverURL.absoluteString
        let info = try await server.info()
        sweepDays = max(Self.shortestSweepDays, info.sweepDeviceDays ?? 180)
        savedGroupsSupported = info.version >= 3
        let state = try storage.state()
        var kept = (try keyStore.load()) ?? credentials
        let sameServer: Bool
        if let id = info.serverID, let known = kept.serverID {
            sameServer = id == known
        } else {
            // A version 1 server, or keys from before server ids: the URL decides, as it did.
            sameServer = state.serverURL == nil || state.serverURL == url
        }
        if !sameServer { kept.accountGeneration = nil }
        let joined = kept.accountGeneration != nil || (sameServer && state.cursor > 0)
        let registered = try await server.register(create: !joined, generation: kept.accountGeneration)
        if let generation = registered.generation, let known = kept.accountGeneration, generation != known {
            throw SyncError.accountDeleted(serverURL: url)
        }
        if sameServer, let counter = registered.counter, counter < state.cursor {
            throw SyncError.accountRestored(serverURL: url, serverCounter: counter, cursor: state.cursor)
        }
        try storage.setServerURL(url, anotherServer: !sameServer)
        let serverID = info.serverID ?? registered.serverID
        if kept.serverID != serverID || kept.accountGeneration != registered.generation {
            kept.serverID = serverID
            kept.accountGeneration = registered.generation
            try keyStore.save(kept)
        }
        credentials = kept
        prepared = true
    }

    /// Uploads everything pending and sends the commands due, then fetches
    /// everything new and applies the commands waiting for this device.
    @discardableResult
    public func sync() async throws -> SyncReport {
        try await syncing(.both) { report in
            try await self.upload(into: &report)
            try await self.sendDueCommands(into: &report)
            try await self.fetchFromCursor(into: &report)
            try await self.receiveCommands(into: &report)
            // What the commands changed here goes out in the same sync.
            if report.commandsApplied > 0 { try await self.upload(into: &report) }
        }
    }

    /// Syncs until the task is cancelled: uploads each local change at once (a
    /// burst's changes coalesced), sends each command as its undo window ends, and waits on the
    /// server for hints of other devices' changes and commands. Errors are
    /// kept in ``status`` and retried with a growing pause, except an account
    /// gone from the server (deleted, or restored from an older backup): then
    /// it returns, with that error in ``status``.
    public func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.uploadLoop() }
            group.addTask { await self.commandLoop() }
            group.addTask { await self.hintLoop() }
            // A loop ends on cancellation, or when the account is gone (``SyncError/accountDeleted(serverURL:)``,
            // ``SyncError/accountRestored(serverURL:serverCounter:cursor:)``): then every loop ends.
            await group.next()
            group.cancelAll()
        }
    }

    // MARK: - Loops

    /// Uploads when the outbox gains a record (an observation of the outbox, so
    /// another process's commits count too), paced by ``UploadPacing``: the
    /// first change after a quiet period at once, a burst's changes coalesced;
    /// and again after a pause when an upload fails.
    ///
    /// The observation also sees the acknowledgement of an upload that left
    /// records behind (ones marked while it was under way): that counts as one
    /// more change of the burst, which it is.
    private func uploadLoop() async {
        var lastUploadStart: ContinuousClock.Instant?
        let (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let pacing = Protected(UploadPacing(debounce: configuration.debounce))
        let observation = storage.observePendingCount { result in
            guard case .success(let pending) = result, pending > 0 else { return }
            pacing.withLock { $0.changed(at: .now) }
            signal.yield()
        }
        defer { observation.cancel() }
        var failures = 0
        for await _ in signals {
            do {
                let wait = pacing.withLock { $0.wait(at: .now) }
                if wait > .zero { try await Task.sleep(for: wait) }
                // Never closer than the server's allowance permits (10 a second by default, a bucket of
                // 10): an upload woken by the acknowledgement of the one before could otherwise follow it
                // at once, and a long burst then met `429` (seen in `UploadPacingEndToEndTests`).
                if let previous = lastUploadStart, previous.duration(to: .now) < Self.shortestUploadGap {
                    try await Task.sleep(until: previous + Self.shortestUploadGap, clock: .continuous)
                }
                let start = ContinuousClock.now
                lastUploadStart = start
                let report = try await syncing(.upload) { report in try await self.upload(into: &report, drain: false) }
                // An upload that found the outbox empty (its records left with the one before) paces nothing.
                if report.uploaded > 0 { pacing.withLock { $0.uploaded(at: start) } }
                failures = 0
            } catch is CancellationError {
                return
            } catch {
                if Self.endsTheRun(error) { return }
                failures += 1
                guard (try? await Task.sleep(for: Self.pause(after: failures))) != nil else { return }
                signal.yield()
            }
        }
    }

    /// Waits for a hint that the account changed (or that commands wait), then
    /// pulls: the same calls as ``sync()``'s fetch, so push, polling and a cold
    /// start share one path.
    private func hintLoop() async {
        var failures = 0
        // What happened while this client was not running is pulled first.
        var pullFirst = true
        while !Task.isCancelled {
            do {
                if pullFirst {
                    try await syncing(.fetch) { report in
                        try await self.fetchFromCursor(into: &report)
                        try await self.receiveCommands(into: &report)
                    }
                    pullFirst = false
                }
                let cursor = try storage.state().cursor
                let hint = try await server.hint(after: cursor, wait: configuration.longPollSeconds)
                // The fetch below reads up to the counter as it is then, perhaps past a command
                // posted after this hint was read, which the next hint would not wake for.
                if hint.counter != cursor {
                    try await syncing(.fetch) { report in
                        try await self.fetchFromCursor(into: &report)
                        // The hint counted the commands at its counter, in one read; only a fetch
                        // that read past that counter may have passed a command posted since.
                        if hint.commands > 0 || report.cursor != hint.counter {
                            try await self.receiveCommands(into: &report)
                        }
                    }
                } else if hint.commands > 0, applier != nil {
                    try await syncing(.fetch) { report in try await self.receiveCommands(into: &report) }
                }
                failures = 0
            } catch is CancellationError {
                return
            } catch {
                if Self.endsTheRun(error) { return }
                failures += 1
                try? await Task.sleep(for: Self.pause(after: failures))
            }
        }
    }

    /// Sends each queued command as soon as its undo window ends: woken by a
    /// commit to the queue (another process's too) and at the next window's end.
    private func commandLoop() async {
        let (signals, signal) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let observation = storage.observeOutgoingCommands { result in
            if case .success(let count) = result, count > 0 { signal.yield() }
        }
        defer { observation.cancel() }
        var failures = 0
        var timer: Task<Void, Never>?
        defer { timer?.cancel() }
        for await _ in signals {
            do {
                try await syncing(.upload) { report in try await self.sendDueCommands(into: &report) }
                failures = 0
                timer?.cancel()
                if let next = try storage.nextCommandDue() {
                    let delay = max(0, next.timeIntervalSince(clock()))
                    timer = Task {
                        guard (try? await Task.sleep(for: .milliseconds(Int(delay * 1000) + 1))) != nil else { return }
                        signal.yield()
                    }
                }
            } catch is CancellationError {
                return
            } catch {
                if Self.endsTheRun(error) { return }
                failures += 1
                guard (try? await Task.sleep(for: Self.pause(after: failures))) != nil else { return }
                signal.yield()
            }
        }
    }

    /// Whether `error` says the server went away (unreachable, or failing): it may
    /// come back restored from an older backup, so the next call checks it again.
    static func serverMayHaveChanged(_ error: any Error) -> Bool {
        switch error as? SyncError {
        case .unreachable?: true
        case .server(let status, _, _)?: status >= 500
        default: false
        }
    }

    /// The shortest time between two uploads of ``run()``: within the server's default allowance of
    /// 10 uploads a second, with room for a command post.
    static let shortestUploadGap: Duration = .milliseconds(110)

    /// Whether `error` ends ``run()``: retrying cannot help, the user must pair again.
    static func endsTheRun(_ error: any Error) -> Bool {
        switch error as? SyncError {
        case .accountDeleted?, .accountRestored?: true
        default: false
        }
    }

    static func pause(after failures: Int) -> Duration {
        .milliseconds(min(30_000, 250 << min(failures, 7)))
    }

    /// What a sync does: the loops of ``run()`` each do one part, ``sync()`` both.
    private enum Part {
        case upload, fetch, both
    }

    /// Runs one sync and keeps ``status`` (and the store's last error) up to date.
    /// A part's success clears that part's error only: a fetch that succeeds does
    /// not hide an upload that keeps failing.
    @discardableResult
    private func syncing(_ part: Part, _ body: (inout SyncReport) async throws -> Void) async throws -> SyncReport {
        running += 1
        status.isSyncing = true
        defer {
            running -= 1
            status.isSyncing = running > 0
        }
        var report = SyncReport()
        var failure: (any Error)?
        do {
            try await prepare()
            try await body(&report)
        } catch {
            failure = error
            if Self.serverMayHaveChanged(error) {
                // A server that went away may come back restored from a backup, or moved: check again.
                prepared = false
                await server.forgetRegistration()
            }
        }
        if !(failure is CancellationError) {
            let error = failure.map { ($0 as? SyncError) ?? SyncError.unreachable($0.localizedDescription) }
            if part != .fetch { uploadError = error }
            if part != .upload { fetchError = error }
            let shown = uploadError ?? fetchError
            try? storage.recordResult(error: shown?.errorDescription)
            let state = try? storage.state()
            status.lastSyncAt = state?.lastSyncAt ?? status.lastSyncAt
            status.pendingCount = state?.pendingCount ?? status.pendingCount
            status.lastError = shown
        }
        if let failure { throw failure }
        return report
    }

    // MARK: - Upload

    /// Uploads what the outbox holds. With `drain`, until it is empty (``sync()``); without,
    /// one round of what was pending when it began (``run()``'s loop: what is marked meanwhile
    /// wakes the loop again, paced, instead of following at once, which in a burst of changes made
    /// uploads back to back, past the server's allowance).
    private func upload(into report: inout SyncReport, drain: Bool = true) async throws {
        // One upload at a time (the loop and a `sync()` interleave at their awaits):
        // two would read the same records and send them twice, with two versions.
        while uploading { try await Task.sleep(for: .milliseconds(10)) }
        uploading = true
        defer { uploading = false }
        if try storage.state().fullSyncNeeded { try await fullSync(into: &report) }
        var rounds = 0
        var lastRoundWasPartial = false
        while rounds < 10_000 {
            rounds += 1
            let pending = try storage.pending(limit: configuration.batchRecords)
            guard !pending.isEmpty else { break }
            // A round of less than a batch took everything pending when it began.
            if !drain, rounds > 1, report.uploaded > 0, pending.count < configuration.batchRecords,
               lastRoundWasPartial
            { break }
            lastRoundWasPartial = pending.count < configuration.batchRecords
            let first = try reserveVersions(pending.count)
            let deviceID = credentials.device.deviceID
            // Closed tabs expire on the server's clock.
            let clockOffset = Int64(await server.clockOffset)
            var batch: [(SyncAPI.UploadRecord, SyncOutboxEntry)] = []
            var batchBytes = 0
            for (offset, record) in pending.enumerated() {
                let version = first + Int64(offset)
                let localID = record.entry.kind == .device ? deviceID : record.entry.localID
                let upload: SyncAPI.UploadRecord
                if let content = record.content {
                    let (recordID, sealed) = try sealer.seal(content, localID: localID, deviceID: deviceID, version: version)
                    upload = SyncAPI.UploadRecord(
                        id: recordID, version: version, tombstone: false, expiresAt: record.expiresAt.map { $0 + clockOffset },
                        sealed: sealed.base64EncodedString())
                    report.uploadedBytes += sealed.count
                } else {
                    // A sealed tombstone: readers apply no deletion that this device did not seal.
                    let (recordID, sealed) = try sealer.sealTombstone(
                        kind: record.entry.kind, localID: localID, deviceID: deviceID, version: version)
                    upload = SyncAPI.UploadRecord(
                        id: recordID, version: version, tombstone: true, expiresAt: nil,
                        sealed: sealed.base64EncodedString())
                    report.uploadedBytes += sealed.count
                }
                let size = (upload.sealed?.utf8.count ?? 0) + 128
                if !batch.isEmpty, batchBytes + size > configuration.batchBytes {
                    try await send(batch)
                    report.uploaded += batch.count
                    batch = []
                    batchBytes = 0
                }
                batch.append((upload, record.entry))
                batchBytes += size
            }
            if !batch.isEmpty {
                try await send(batch)
                report.uploaded += batch.count
            }
        }
        // Saved groups' records (account-wide), after this device's own.
        try await uploadSavedGroups(into: &report)
    }

    /// After the rows were replaced (a restored snapshot, an import that replaced
    /// them, a new pairing): marks every record for upload, and tombstones the
    /// records the server holds of this device that are gone here. The version
    /// floor kept with the keys keeps every version new to the server.
    private func fullSync(into report: inout SyncReport) async throws {
        let deviceID = credentials.device.deviceID
        let sealer = sealer
        let (marked, request) = try storage.markEverything()
        let local = Set(marked.map { entry in
            sealer.account.recordID(
                kind: entry.kind, deviceID: deviceID, localID: entry.kind == .device ? deviceID : entry.localID)
        })
        // One pass over everything the server holds: this device's records are noted
        // with their kinds (for the tombstones' seals), the other devices' applied (so a
        // new device downloads the account once).
        var live: [String: SyncRecordKind] = [:]
        try await fetch(after: 0, wait: 0, into: &report) { change in
            guard let text = change.sealed, let sealed = Data(base64Encoded: text),
                  case .content(let content, _)? = sealer.opened(
                    sealed, recordID: change.id, deviceID: deviceID, version: change.version)
            else {
                // A tombstone, or a record that does not open: nothing of it shows anywhere.
                live[change.id] = change.tombstone ? nil : .tab
                return
            }
            live[change.id] = content.kind
        }
        let stale = live.filter { !local.contains($0.key) }.sorted { $0.key < $1.key }
        var start = 0
        while start < stale.count {
            let chunk = stale[start..<min(stale.count, start + configuration.batchRecords)]
            let first = try reserveVersions(chunk.count)
            let records = try chunk.enumerated().map { offset, record in
                let version = first + Int64(offset)
                let sealed = try sealer.sealTombstone(
                    recordID: record.key, kind: record.value, deviceID: deviceID, version: version)
                return SyncAPI.UploadRecord(
                    id: record.key, version: version, tombstone: true, expiresAt: nil,
                    sealed: sealed.base64EncodedString())
            }
            _ = try await server.upload(records, idempotencyKey: UUID().uuidString.lowercased())
            report.uploaded += records.count
            start += chunk.count
        }
        try storage.fullSyncDone(request: request)
    }

    private func send(_ batch: [(SyncAPI.UploadRecord, SyncOutboxEntry)]) async throws {
        _ = try await server.upload(batch.map(\.0), idempotencyKey: UUID().uuidString.lowercased())
        try storage.acknowledge(batch.map(\.1))
    }

    /// Takes versions from the store's counter, never below the floor kept with
    /// the keys, and raises that floor first when they reach it.
    private func reserveVersions(_ count: Int) throws -> Int64 {
        let first = try storage.reserveVersions(count, atLeast: credentials.versionFloor)
        let end = first + Int64(count)
        if end > credentials.versionFloor {
            // Saved before it is relied on: a failed save leaves the floor as the file has it.
            var raised = credentials
            raised.versionFloor = max(end + configuration.versionBlock, (try keyStore.load())?.versionFloor ?? 0)
            try keyStore.save(raised)
            credentials = raised
        }
        return first
    }

    // MARK: - Commands

    /// Queues "open this page" for the device `deviceID` of the account. It
    /// leaves at once (after `undoWindow`, when given) and expires after 10 days.
    ///
    /// - Returns: The queued command; its id undoes it (``undo(_:)``) until it leaves.
    /// - Throws: `NavigationHistoryError` for a page no store would open (an
    ///   empty URL, one over the length limit).
    @discardableResult
    public func sendTab(_ tab: SyncSendTab, to deviceID: String, undoWindow: Duration = .zero) throws
        -> SyncOutgoingCommand
    {
        // The target would refuse a page its store refuses: say so here, before it leaves.
        _ = try NavigationHistory(
            items: [SyncedNavigation(url: tab.url, title: tab.title, time: 0).navigationItem], currentIndex: 0)
        return try queue(.sendTab(tab), to: deviceID.lowercased(), undoWindow: undoWindow)
    }

    /// Queues "close this tab" for the other device's tab `recordID` (a
    /// ``RemoteTab/id``), naming the page this store last saw it on: the device
    /// closes the tab only if it still shows that page. It leaves once the undo
    /// window ends (``Configuration/undoWindow`` unless given) and expires after
    /// 48 hours.
    ///
    /// - Throws: `StorageError.unknownTab` when no other device's open tab has that id.
    @discardableResult
    public func closeRemoteTab(_ recordID: String, undoWindow: Duration? = nil) throws -> SyncOutgoingCommand {
        guard case .tab(let tab)? = try storage.remoteRecord(recordID),
              let device = try storage.remoteDeviceID(ofRecord: recordID)
        else { throw StorageError.unknownTab(recordID) }
        let url = tab.current.flatMap { tab.navigations.indices.contains($0) ? tab.navigations[$0].url : nil } ?? ""
        return try queue(
            .closeTab(SyncCloseTab(recordID: recordID, tabID: tab.id, url: url)), to: device,
            undoWindow: undoWindow ?? configuration.undoWindow)
    }

    /// Takes back a queued command: `true` when it had not left (it never
    /// will), `false` when it left already or was undone before.
    @discardableResult
    public func undo(_ commandID: String) throws -> Bool {
        try storage.cancelCommand(commandID)
    }

    private func queue(_ command: SyncCommand, to deviceID: String, undoWindow: Duration) throws -> SyncOutgoingCommand {
        let now = clock()
        let window = Double(undoWindow.components.seconds) + Double(undoWindow.components.attoseconds) / 1e18
        let outgoing = SyncOutgoingCommand(
            id: UUID().uuidString.lowercased(), targetDeviceID: deviceID, command: command, createdAt: now,
            sendAfter: now.addingTimeInterval(max(0, window)), expiresAt: now.addingTimeInterval(command.lifetime))
        try storage.queue(outgoing)
        return outgoing
    }

    /// Sends the queued commands whose undo window ended. A command for a device
    /// the server does not know (revoked, or never registered) is dropped.
    private func sendDueCommands(into report: inout SyncReport) async throws {
        while sendingCommands { try await Task.sleep(for: .milliseconds(10)) }
        sendingCommands = true
        defer { sendingCommands = false }
        let own = credentials.device.deviceID
        while true {
            let due = try storage.dueEnvelopes(at: clock(), limit: 1000)
            guard !due.isEmpty else { return }
            // Queued on this device's clock; sent on the server's, which decides when they expire.
            let offset = await server.clockOffset
            let sealed = try due.map { outgoing in
                let expires = Int64(outgoing.expiresAt.timeIntervalSince1970 + offset)
                return SyncAPI.OutgoingCommand(
                    id: outgoing.id, target: outgoing.targetDeviceID, expiresAt: expires,
                    sealed: try commandSealer.seal(
                        payload: outgoing.payload, id: outgoing.id, sender: own, target: outgoing.targetDeviceID,
                        expiresAt: expires
                    ).base64EncodedString())
            }
            do {
                _ = try await server.post(sealed)
            } catch SyncError.server(let status, _, _) where status == 404 {
                // A command names a device gone from the account: one at a time, that one is dropped.
                var gone: String?
                for (command, outgoing) in zip(sealed, due) {
                    do {
                        _ = try await server.post([command])
                        report.commandsSent += 1
                    } catch SyncError.server(let status, _, _) where status == 404 {
                        gone = outgoing.targetDeviceID
                    }
                    try storage.commandsSent([command.id])
                }
                if let gone {
                    throw SyncError.server(status: 404, code: "unknown_device", message: "device \(gone) is not in the account")
                }
                continue
            }
            try storage.commandsSent(due.map(\.id))
            report.commandsSent += due.count
        }
    }

    /// Fetches the commands waiting for this device, applies each through the
    /// applier (once: applied ids are kept), then acknowledges them.
    private func receiveCommands(into report: inout SyncReport) async throws {
        guard let applier else { return }
        while receivingCommands { try await Task.sleep(for: .milliseconds(10)) }
        receivingCommands = true
        defer { receivingCommands = false }
        let own = credentials.device.deviceID
        let account = sealer.account
        while true {
            let pending = try await server.pendingCommands()
            guard !pending.isEmpty else { return }
            var done: [String] = []
            let now = Int64(await server.serverNow().timeIntervalSince1970)
            for command in pending {
                // Past its time (a server that held it back): done with, not applied.
                guard command.expiresAt > now else {
                    report.commandsRejected += 1
                    done.append(command.id)
                    continue
                }
                guard let sealed = Data(base64Encoded: command.sealed),
                      let opened = commandSealer.open(
                        sealed, id: command.id, sender: command.sender, target: own, expiresAt: command.expiresAt)
                else {
                    report.commandsRejected += 1
                    done.append(command.id)
                    continue
                }
                let outcome = try await applier.apply(opened, id: command.id) { close in
                    account.recordID(kind: .tab, deviceID: own, localID: close.tabID) == close.recordID
                }
                if case .refused = outcome { report.commandsRejected += 1 } else { report.commandsApplied += 1 }
                done.append(command.id)
            }
            try await server.acknowledge(commands: done)
            if pending.count < 1000 { return }
        }
    }

    // MARK: - Devices and the account

    /// The account's devices as the server knows them: ids, when each was last
    /// seen, and whether it has been silent long enough to be hidden.
    public func serverDevices() async throws -> [SyncServerDevice] {
        try await prepare()
        return try await server.devices().map {
            SyncServerDevice(
                id: $0.deviceID, registeredAt: Date(timeIntervalSince1970: Double($0.registeredAt)),
                lastSeenAt: Date(timeIntervalSince1970: Double($0.lastSeenAt)), isHidden: $0.hidden ?? false)
        }
    }

    /// Revokes a device of the account: its tokens stop working, and the server
    /// tombstones its records, so every device drops its tabs. Rotate the seed
    /// afterwards (pair every remaining device with a new one) if the revoked
    /// device may still hold the old.
    public func revoke(device id: String) async throws {
        try await prepare()
        try await server.revoke(device: id.lowercased())
    }

    /// Deletes the account on the server with everything it holds; this store
    /// keeps its own tabs and turns sync off.
    public func deleteAccount() async throws {
        try await prepare()
        try await server.deleteAccount()
        try storage.disable()
    }

    // MARK: - Fetch

    /// Whether `revocation` is the account's signed statement that revoked `deviceID`.
    private func verifies(_ revocation: SyncAPI.Revocation?, of deviceID: String) -> Bool {
        guard let revocation, let signature = Data(base64Encoded: revocation.signature) else { return false }
        return sealer.account.verifiesRevocation(of: deviceID, revokedAt: revocation.revokedAt, signature: signature)
    }

    /// The fewest days of silence after which a device believes the server swept another.
    static let shortestSweepDays = 30

    /// Fetches from the store's cursor; when the server no longer holds what
    /// changed since (`410`), forgets the other devices' records and fetches
    /// everything again. A cursor past the server's counter is a server restored
    /// from an older backup: ``SyncError/accountRestored(serverURL:serverCounter:cursor:)``.
    func fetchFromCursor(into report: inout SyncReport) async throws {
        do {
            try await fetch(wait: 0, into: &report)
        } catch SyncError.cursorExpired {
            try storage.restartFetch()
            try await fetch(wait: 0, into: &report)
        } catch SyncError.server(let status, _, let message) where status == 400 && message.contains("from the future") {
            // The counter fell below the cursor since this client checked it (a restore while it ran).
            let cursor = try storage.state().cursor
            throw SyncError.accountRestored(serverURL: serverURL.absoluteString, serverCounter: nil, cursor: cursor)
        }
    }

    /// Fetches what the server holds after the store's cursor (or after `start`),
    /// opens and applies the other devices' records, and hands this device's own
    /// to `own`.
    private func fetch(
        after start: Int64? = nil, wait: Int, into report: inout SyncReport,
        own ownRecord: (SyncAPI.ChangedRecord) -> Void = { _ in }
    ) async throws {
        var cursor = try start ?? storage.state().cursor
        var waiting = wait
        var savedGroupsFetched = false
        let own = credentials.device.deviceID
        while true {
            let changes = try await server.changes(after: cursor, wait: waiting, accountWide: savedGroupsSupported)
            waiting = 0
            var received: [SyncReceivedRecord] = []
            for change in changes.records where change.deviceID == own { ownRecord(change) }
            // Account-wide records (saved groups) merge before the cursor moves past them; the
            // rows follow once, at the end.
            if try await mergeSavedGroups(from: changes.records, into: &report) { savedGroupsFetched = true }
            for change in changes.records where change.deviceID != own && change.deviceID != SavedGroupSealer.accountDevice {
                let modified = Date(timeIntervalSince1970: Double(change.modifiedAt))
                guard let text = change.sealed else {
                    guard change.tombstone else {
                        report.rejected.append(change.id)
                        continue
                    }
                    // A tombstone the server made (or a version 1 client's): applied only when the
                    // account's revocation statement of its device verifies, or by the sweep rule.
                    received.append(SyncReceivedRecord(
                        recordID: change.id, deviceID: change.deviceID, sequence: change.seq, version: change.version,
                        modifiedAt: modified, content: nil, isAuthenticated: verifies(change.revocation, of: change.deviceID)))
                    continue
                }
                // The sealed bytes decide: a record or a sealed tombstone, whatever the flag says.
                guard let sealed = Data(base64Encoded: text),
                      let opened = sealer.opened(sealed, recordID: change.id, deviceID: change.deviceID, version: change.version)
                else {
                    report.rejected.append(change.id)
                    continue
                }
                let content: (SyncRecordContent, payload: String)?
                if case .content(let record, let payload) = opened { content = (record, payload) } else { content = nil }
                received.append(SyncReceivedRecord(
                    recordID: change.id, deviceID: change.deviceID, sequence: change.seq, version: change.version,
                    modifiedAt: modified, content: content, digest: SHA256.hash(data: sealed).hexText))
            }
            var silentSince: Date?
            if received.contains(where: { !$0.isAuthenticated }) {
                silentSince = Date().addingTimeInterval(-86_400 * Double(sweepDays))
            }
            let applied = try storage.apply(received, cursor: changes.cursor, silentSince: silentSince)
            report.applied += applied.applied
            report.removed += applied.removed
            report.replayed += applied.replayed
            report.forgedDeletions += applied.forgedDeletions
            report.skipped += applied.skipped + changes.records.count(where: { $0.deviceID == own })
            report.cursor = changes.cursor
            cursor = changes.cursor
            if !changes.more {
                if savedGroupsFetched { try await mergeSavedGroups([]) }
                return
            }
        }
    }
}
