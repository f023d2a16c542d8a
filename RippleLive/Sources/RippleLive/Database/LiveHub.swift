import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import Ripple

/// The live queries of one database: shares one observation among the subscribers of each
/// query, fetches what commits change, and posts the values to the connections'
/// mailboxes.
///
/// ```swift
/// let hub = try LiveHub(writer: dbPool, queries: [leaderboard, player])
/// router.addLiveQueries(hub, at: "live")
/// ```
///
/// Commits are counted on the writer (``LiveEventID/sequence``). A round of fetches begins
/// on the writer's queue between two transactions, reads the sequence, and opens a
/// snapshot of that very state (`asyncConcurrentRead`): the queries changed since the
/// previous round are fetched there together, each once, and every value a connection is
/// sent with one id is current at that id.
public final class LiveHub: Sendable {
    /// This hub's epoch, drawn at random: event ids of another epoch cannot be resumed.
    public let epoch: String
    /// The limits of the hub's connections.
    public let configuration: LiveConfiguration

    let writer: any DatabaseWriter
    let queries: [String: LiveQuery]
    private let commits = CommitCounter()
    private let core = NIOLockedValueBox(Core())

    private struct Core: Sendable {
        var registry = SubscriptionRegistry<LiveFetch>()
        var mailboxes: [Int: Mailbox] = [:]
        var observations: [SharedQueryKey: AnyDatabaseCancellable] = [:]
        var nextConnectionID = 0
        var watchdogRuns = false
        var expiryScheduled = false
        /// The sequence of the last round that posted its batches.
        var finishedSequence: UInt64 = 0
        var publicationWaiters: [(sequence: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
        var rounds = 0
        var fetches = 0
    }

    /// A hub for the database of `writer`, serving `queries`.
    ///
    /// - throws: when two queries have the same name.
    public init(writer: some DatabaseWriter, queries: [LiveQuery], configuration: LiveConfiguration = LiveConfiguration()) throws {
        var byName: [String: LiveQuery] = [:]
        for query in queries {
            guard byName.updateValue(query, forKey: query.name) == nil else {
                throw LiveRequestError(.internalServerError, "two live queries are named \"\(query.name)\"")
            }
        }
        self.queries = byName
        self.writer = writer
        self.configuration = configuration
        self.epoch = String(UInt64.random(in: 1...UInt64.max), radix: 16)
        let commits = self.commits
        // Held weakly by the writer: it goes with the hub.
        writer.writeWithoutTransaction { db in
            db.add(transactionObserver: commits, extent: .observerLifetime)
        }
    }

    // MARK: - Connections

    /// Registers a connection whose subscriptions are `subscriptions`; its first batch
    /// comes at the end of the next round.
    func connect(_ subscriptions: [(index: Int, key: SharedQueryKey, job: LiveFetch)], plan: ResumePlan) -> (id: Int, mailbox: Mailbox) {
        let (id, mailbox) = open()
        subscribe(id, subscriptions, plan: plan)
        return (id, mailbox)
    }

    /// Registers a connection without subscriptions yet (a WebSocket's).
    func open() -> (id: Int, mailbox: Mailbox) {
        let mailbox = Mailbox()
        let (id, startWatchdog) = core.withLockedValue { core -> (Int, Bool) in
            let id = core.nextConnectionID
            core.nextConnectionID += 1
            core.mailboxes[id] = mailbox
            defer { core.watchdogRuns = true }
            return (id, !core.watchdogRuns)
        }
        if startWatchdog { runWatchdog() }
        return (id, mailbox)
    }

    /// One task for all the connections, while there are some: at each tick it posts
    /// heartbeats to the idle ones and ends the stalled ones (see ``Mailbox/watch(now:_:)``).
    /// (Rather than a task and a timer per connection: memory per idle subscriber,
    /// Benchmarks/README.md, "Live queries".)
    private func runWatchdog() {
        let configuration = configuration
        let tick = max(min(configuration.stallTimeout, configuration.heartbeatInterval) / 4, .milliseconds(5))
        Task { [weak self] in
            while true {
                try? await Task.sleep(for: tick)
                guard let mailboxes = self?.mailboxesToWatch() else { return }
                let now = ContinuousClock.now
                for mailbox in mailboxes {
                    mailbox.watch(now: now, configuration)
                }
            }
        }
    }

    /// The connections' mailboxes; nil when there is none, and the watchdog stops then.
    private func mailboxesToWatch() -> [Mailbox]? {
        core.withLockedValue { core in
            guard !core.mailboxes.isEmpty else {
                core.watchdogRuns = false
                return nil
            }
            return Array(core.mailboxes.values)
        }
    }

    /// Adds subscriptions to connection `id`, under ids it does not use; their first
    /// values come together at the end of the next round.
    func subscribe(_ id: Int, _ subscriptions: [(index: Int, key: SharedQueryKey, job: LiveFetch)], plan: ResumePlan) {
        let schedule = core.withLockedValue { $0.registry.subscribe(id, subscriptions, plan: plan) }
        if schedule { scheduleRound() }
    }

    /// Drops the subscriptions `ids` of connection `id`, and whatever of theirs waits in
    /// its mailbox.
    func unsubscribe(_ id: Int, _ ids: [Int]) {
        let (mailbox, scheduleExpiry) = core.withLockedValue { core -> (Mailbox?, Bool) in
            core.registry.unsubscribe(id, ids, now: .now)
            guard !core.expiryScheduled else { return (core.mailboxes[id], false) }
            core.expiryScheduled = true
            return (core.mailboxes[id], true)
        }
        mailbox?.forget(ids)
        if scheduleExpiry { scheduleExpiryCheck() }
    }

    /// The connection ended: its mailbox is dropped, its queries without subscribers are
    /// dropped after the grace period.
    func disconnect(_ id: Int) {
        let (mailbox, scheduleExpiry) = core.withLockedValue { core -> (Mailbox?, Bool) in
            let mailbox = core.mailboxes.removeValue(forKey: id)
            core.registry.unsubscribe(id, now: .now)
            guard !core.expiryScheduled else { return (mailbox, false) }
            core.expiryScheduled = true
            return (mailbox, true)
        }
        mailbox?.finish()
        if scheduleExpiry { scheduleExpiryCheck() }
    }

    // MARK: - Writes

    /// Runs `updates` in a transaction, and returns its value with the id of the commit it
    /// made, once every live value that the commit changed is posted to the connections:
    /// a client that gets this id waits until its stream reached it (`seq` at least the
    /// id's sequence) to see its write in the queries the write changed.
    public func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> (value: T, eventID: LiveEventID) {
        let commits = self.commits
        let (value, sequence) = try await writer.writeWithoutTransaction { db -> (T, UInt64) in
            var value: T?
            try db.inTransaction {
                value = try updates(db)
                return .commit
            }
            guard let value else { throw LiveRequestError(.internalServerError, "the write returned no value") }
            // The commit was counted on this queue, before this line.
            return (value, commits.value)
        }
        await waitUntilPublished(sequence)
        return (value, LiveEventID(epoch: epoch, sequence: sequence))
    }

    /// Returns once the values a commit of `sequence` changed are posted: at once when no
    /// round is scheduled or running (the commit changed no observed region).
    private func waitUntilPublished(_ sequence: UInt64) async {
        await withCheckedContinuation { continuation in
            let done = core.withLockedValue { core -> Bool in
                if core.finishedSequence >= sequence || core.registry.phase == .idle { return true }
                core.publicationWaiters.append((sequence, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }

    // MARK: - Rounds

    private func scheduleRound() {
        writer.asyncWriteWithoutTransaction { db in
            self.beginRound(db)
        }
    }

    /// On the writer's queue, between transactions: the sequence is exact, and the snapshot
    /// opened below holds that very state.
    private func beginRound(_ db: Database) {
        let sequence = commits.value
        let work = core.withLockedValue { core -> [SubscriptionRegistry<LiveFetch>.Work] in
            core.rounds += 1
            return core.registry.beginRound(sequence: sequence)
        }
        var fetched: [SubscriptionRegistry<LiveFetch>.Fetched] = []
        var toFetch: [SubscriptionRegistry<LiveFetch>.Work] = []
        for item in work {
            if item.observe, let failure = startObserving(item) {
                fetched.append(.init(key: item.key, outcome: .failure(failure), observed: false))
            } else {
                toFetch.append(item)
            }
        }
        let readyResults = fetched
        let toFetchNow = toFetch
        writer.asyncConcurrentRead { result in
            var fetched = readyResults
            switch result {
            case .success(let db):
                for item in toFetchNow {
                    let outcome: LiveOutcome
                    do {
                        outcome = .value(try item.job.fetchJSON(db))
                    } catch {
                        outcome = .failure(String(describing: error))
                    }
                    fetched.append(.init(key: item.key, outcome: outcome, observed: true))
                }
            case .failure(let error):
                for item in toFetchNow {
                    fetched.append(.init(key: item.key, outcome: .failure(String(describing: error)), observed: true))
                }
            }
            self.finishRound(sequence: sequence, fetched, fetchCount: toFetchNow.count)
        }
    }

    /// Starts the region observation of a new query, on the writer's queue; returns the
    /// error's description when its region cannot be computed (a missing table).
    private func startObserving(_ item: SubscriptionRegistry<LiveFetch>.Work) -> String? {
        let failure = NIOLockedValueBox<String?>(nil)
        let key = item.key
        let cancellable = DatabaseRegionObservation(tracking: item.job.regions).start(in: writer) { error in
            failure.withLockedValue { $0 = String(describing: error) }
        } onChange: { [weak self] _ in
            self?.regionDidChange(key)
        }
        if let description = failure.withLockedValue({ $0 }) { return description }
        let kept = core.withLockedValue { core -> Bool in
            // The query may have expired since the round began.
            guard core.registry.contains(key) else { return false }
            core.observations[key] = cancellable
            return true
        }
        if !kept { cancellable.cancel() }
        return nil
    }

    private func regionDidChange(_ key: SharedQueryKey) {
        let schedule = core.withLockedValue { $0.registry.regionDidChange(key) }
        if schedule { scheduleRound() }
    }

    private func finishRound(sequence: UInt64, _ fetched: [SubscriptionRegistry<LiveFetch>.Fetched], fetchCount: Int) {
        let (posts, waiters, again) = core.withLockedValue { core in
            core.fetches += fetchCount
            let (batches, again) = core.registry.finishRound(fetched)
            let posts = batches.compactMap { id, batch in core.mailboxes[id].map { ($0, batch) } }
            core.finishedSequence = sequence
            // Waiters of a later commit wait for the next round, unless none is coming.
            let released = core.publicationWaiters.filter { $0.sequence <= sequence || !again }
            core.publicationWaiters.removeAll { $0.sequence <= sequence || !again }
            return (posts, released.map(\.continuation), again)
        }
        for (mailbox, batch) in posts {
            mailbox.post(batch)
        }
        for waiter in waiters {
            waiter.resume()
        }
        if again { scheduleRound() }
    }

    // MARK: - Expiry

    private func scheduleExpiryCheck() {
        let grace = configuration.gracePeriod
        Task { [weak self] in
            try? await Task.sleep(for: grace)
            self?.expireIdleQueries()
        }
    }

    private func expireIdleQueries() {
        let (cancellables, again) = core.withLockedValue { core -> ([AnyDatabaseCancellable], Bool) in
            let expired = core.registry.expire(now: .now, grace: configuration.gracePeriod)
            let cancellables = expired.compactMap { core.observations.removeValue(forKey: $0) }
            let idle = core.registry.queries.values.contains { $0.subscribers.isEmpty }
            core.expiryScheduled = idle
            return (cancellables, idle)
        }
        for cancellable in cancellables {
            cancellable.cancel()
        }
        if again { scheduleExpiryCheck() }
    }

    /// The commits counted so far.
    var commitSequence: UInt64 { commits.value }

    // MARK: - Statistics

    /// What the hub holds and has done, for monitoring and tests.
    public var statistics: LiveStatistics {
        core.withLockedValue { core in
            LiveStatistics(
                sharedQueries: core.registry.queries.count,
                connections: core.mailboxes.count,
                rounds: core.rounds,
                fetches: core.fetches,
                skippedValues: core.mailboxes.values.reduce(0) { $0 + $1.skippedTotal },
                sequence: commits.value)
        }
    }
}

/// A reading of a ``LiveHub``'s counters.
public struct LiveStatistics: Sendable, Equatable {
    /// Shared queries held, with subscribers or in their grace period.
    public var sharedQueries: Int
    /// Open connections.
    public var connections: Int
    /// Rounds of fetches run.
    public var rounds: Int
    /// Query fetches run, over all rounds.
    public var fetches: Int
    /// Values that open connections skipped because they read slower than commits came.
    public var skippedValues: Int
    /// Commits counted so far.
    public var sequence: UInt64
}
