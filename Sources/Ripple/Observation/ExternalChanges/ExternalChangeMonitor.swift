import Dispatch
import Foundation

/// Watches a database file for commits of other processes and connections, and has the
/// writer connection check and tell observers (see `Database.checkExternalChanges()`).
///
/// Owned by the ``DatabaseQueue`` or ``DatabasePool`` of a database file, when
/// ``Configuration/observesExternalChanges`` is true. It does nothing until the writer
/// connection gets its first observer: then it watches the file (``FileWatch``) and runs
/// the safety poll; when the last observer is gone, it stops both. When the checks run is
/// decided by ``ExternalCheckScheduler``.
final class ExternalChangeMonitor: Sendable {
    private weak let writer: SerializedDatabase?
    private let path: String
    private let pollInterval: TimeInterval?
    /// Where file events and timers run on Apple platforms (a queue, not a thread). On
    /// Linux, they run on the thread of ``WatchLoop``.
    private let queue: DispatchQueue

    private struct Locked {
        /// (From a quarter of a millisecond between checks, after a check that told
        /// something, to 4 ms after checks that found nothing: the file events of the
        /// process's own commits cost at most 250 checks a second.)
        var scheduler = ExternalCheckScheduler(minimumInterval: 250_000, maximumInterval: 4_000_000)
        var isTracking = false
        var watch: FileWatch?
        /// The next safety poll.
        var pollTimer: CheckTimer?
        /// Counts the polls planned: a poll that fires after another was planned (tracking
        /// stopped and started again meanwhile) plans no more.
        var pollGeneration = 0
        /// The delay before the next retry of a check that asked for one, in nanoseconds.
        var retryDelay: UInt64 = 0
    }

    private let locked = LockedState(Locked())

    /// Whether the writer of a database at `path` gets a monitor: its accesses are then
    /// counted, so that checks wait for the end of one (see ``AccessOccupancy``).
    static func monitors(path: String, configuration: Configuration) -> Bool {
        isFile(path) && configuration.observesExternalChanges
    }

    private static func isFile(_ path: String) -> Bool {
        guard path != ":memory:" && !path.isEmpty && !path.hasPrefix("file::memory:") else { return false }
        // A named in-memory database (`DatabaseQueue(named:)`) has no file to watch.
        guard path.hasPrefix("file:"), let query = path.split(separator: "?", maxSplits: 1).dropFirst().first else { return true }
        return !query.split(separator: "&").contains("mode=memory")
    }

    /// Sets up the writer of a database file: its tracker (when it observes other
    /// processes or logs for them, creating the log), and the monitor (when it observes
    /// them).
    static func setUp(writer: SerializedDatabase, path: String, configuration: Configuration) -> ExternalChangeMonitor? {
        guard isFile(path) else { return nil }
        let observes = configuration.observesExternalChanges
        guard observes || configuration.logsChangedTables else { return nil }
        let monitor = observes ? ExternalChangeMonitor(writer: writer, path: path, configuration: configuration) : nil
        writer.sync { db in
            guard let connection = db.sqliteConnection else { return }
            let tracker = ExternalChangeTracker(connection: connection, logsChangedTables: configuration.logsChangedTables)
            tracker.monitor = monitor
            db.state.value.observation.externalChanges = tracker
            db.state.value.observation.gathersWrites = configuration.logsChangedTables && !configuration.readonly
            db.createCommitLog()
        }
        return monitor
    }

    private init(writer: SerializedDatabase, path: String, configuration: Configuration) {
        self.writer = writer
        self.path = path
        self.pollInterval = configuration.externalChangeCheckInterval
        self.queue = DispatchQueue(label: "\(configuration.label ?? "Ripple").externalChanges")
    }

    deinit {
        let (watch, pollTimer) = locked.withLock { ($0.watch, $0.pollTimer) }
        watch?.cancel()
        if let pollTimer { Self.cancel(pollTimer) }
    }

    /// Whether the file is watched (for tests).
    var isWatching: Bool { locked.withLock { $0.isTracking && $0.watch != nil } }

    // MARK: - Tracking starts and stops (on the writer's queue)

    func trackingDidStart() {
        locked.withLock { locked in
            guard !locked.isTracking else { return }
            locked.isTracking = true
            locked.scheduler.reset()
            locked.retryDelay = 0
            locked.watch = FileWatch(databasePath: path, queue: queue) { [weak self] in self?.requestCheck(pausingWatch: true) }
            schedulePoll(&locked)
        }
    }

    func trackingDidStop() {
        locked.withLock { locked in
            locked.isTracking = false
            locked.scheduler.reset()
            // (The poll first: without the watch, the loop's thread may end once it is gone.)
            if let pollTimer = locked.pollTimer { Self.cancel(pollTimer) }
            locked.pollTimer = nil
            locked.pollGeneration += 1
            locked.watch?.cancel()
            locked.watch = nil
        }
    }

    // MARK: - Checks

    /// A file event, the poll or a retry: something may have changed. After a file event,
    /// the watch pauses until the planned check starts: later events would only ask for
    /// the same check.
    func requestCheck(pausingWatch: Bool = false) {
        let action = locked.withLock { locked -> ExternalCheckScheduler.Action in
            guard locked.isTracking else { return .none }
            if pausingWatch { locked.watch?.pause() }
            return locked.scheduler.request(now: DispatchTime.now().uptimeNanoseconds)
        }
        perform(action)
    }

    private func perform(_ action: ExternalCheckScheduler.Action) {
        switch action {
        case .none:
            break
        case .check:
            startCheck()
        case .checkAt(let time):
            schedule(at: time) { [weak self] in self?.startCheck() }
        }
    }

    // MARK: - Timers

    #if os(Linux) || os(Android)
    typealias CheckTimer = WatchLoop.Timer
    #else
    typealias CheckTimer = DispatchWorkItem
    #endif

    /// Runs `action` at `time` (`DispatchTime.uptimeNanoseconds`).
    @discardableResult
    private func schedule(at time: UInt64, _ action: @escaping @Sendable () -> Void) -> CheckTimer {
        #if os(Linux) || os(Android)
        return WatchLoop.shared.schedule(at: time, action)
        #else
        let item = DispatchWorkItem(block: action)
        queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: time), execute: item)
        return item
        #endif
    }

    private static func cancel(_ timer: CheckTimer) {
        #if os(Linux) || os(Android)
        WatchLoop.shared.cancel(timer)
        #else
        timer.cancel()
        #endif
    }

    /// Plans the next safety poll, if the configuration asks for one. Under the lock.
    private func schedulePoll(_ locked: inout Locked) {
        guard let pollInterval else { return }
        let nanoseconds = UInt64(max(pollInterval, 0.001) * 1_000_000_000)
        locked.pollGeneration += 1
        let generation = locked.pollGeneration
        locked.pollTimer = schedule(at: DispatchTime.now().uptimeNanoseconds &+ nanoseconds) { [weak self] in
            self?.pollDidFire(generation: generation)
        }
    }

    private func pollDidFire(generation: Int) {
        let isCurrent = locked.withLock { locked in
            guard locked.isTracking, generation == locked.pollGeneration else { return false }
            schedulePoll(&locked)
            return true
        }
        if isCurrent { requestCheck() }
    }

    /// Runs the planned check on the writer: at the end of its access under way, if any,
    /// else in an access of its own. The file events of the process's own commits come
    /// while it writes: their checks then cost no thread wake-up, and the application's next
    /// write does not wait for one (W5b, W8). Commits of others found there are told in an
    /// access of their own, off the application's thread (observers' fetches may wait for
    /// another connection's lock).
    ///
    /// What may wait for another process's lock (reading the commit log in a transaction
    /// when other connections' commits are visible, ``Configuration/logsChangedTables``) is
    /// not done at the end of the application's access, whose thread may be the main
    /// thread: the check then goes on in an access of its own.
    private func startCheck() {
        writer?.runAtEndOfAccess { [weak self] db, atEndOfAccess in self?.runCheck(db, atEndOfAccess: atEndOfAccess) }
    }

    private func runCheck(_ db: Database, atEndOfAccess: Bool) {
        if atEndOfAccess && db.externalCommitsMayBeVisible() {
            // (Still planned: the check starts in that access.)
            writer?.async { [weak self] db in self?.runCheck(db, atEndOfAccess: false) }
            return
        }
        let starts = locked.withLock { locked -> Bool in
            guard locked.isTracking, locked.scheduler.checkWillStart(now: DispatchTime.now().uptimeNanoseconds) else { return false }
            // Events from now on may come after what this check reads.
            locked.watch?.resume()
            return true
        }
        guard starts else { return }
        guard db.hasTransactionObservers else {
            // The last observer is gone.
            db.stopExternalChangeTracking()
            return
        }
        let outcome = db.checkExternalChanges(deferringNotification: atEndOfAccess)
        if db.hasDeferredExternalChanges {
            writer?.async { db in db.tellDeferredExternalChanges() }
        }
        let (next, retry) = locked.withLock { locked -> (ExternalCheckScheduler.Action, UInt64?) in
            let next = locked.scheduler.checkDidEnd(now: DispatchTime.now().uptimeNanoseconds, foundChanges: outcome != .nothingNew)
            guard outcome == .checkAgainSoon else {
                locked.retryDelay = 0
                return (next, nil)
            }
            // A commit frame is written a few microseconds before the commit is visible
            // (unless the writer syncs in between): 50 µs, doubling up to a quarter of a
            // second.
            locked.retryDelay = min(max(locked.retryDelay * 2, 50_000), 256_000_000)
            return (next, locked.retryDelay)
        }
        perform(next)
        if let retry {
            schedule(at: DispatchTime.now().uptimeNanoseconds &+ retry) { [weak self] in self?.requestCheck() }
        }
    }
}
