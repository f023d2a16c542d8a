/// The shared queries, the connections that subscribe to them, and the rounds that fetch
/// them: a plain value whose events return what the hub must do, so that it is tested
/// without a database or a server.
///
/// A round begins on the writer's queue, between two transactions, at a known commit
/// sequence; it fetches every query changed since the previous round in one snapshot of
/// that commit, and ends by telling each connection the outcomes it has not seen. One
/// round runs at a time: changes that come meanwhile wait for the next, which coalesces
/// them. A new connection waits for the end of the next round too, so that the first
/// values it gets are all current at one sequence.
///
/// `Job` is what the hub runs for a query (its fetch); tests use any value.
struct SubscriptionRegistry<Job> {
    typealias ConnectionID = Int

    struct Query {
        var job: Job
        var subscribers: Set<ConnectionID> = []
        /// The last outcome, and the sequence since which it has been current.
        var result: (outcome: LiveOutcome, since: UInt64)?
        /// Whether the writer watches the query's region (it could not compute it yet).
        var observed = false
        /// When the last subscriber left: the query is dropped after a grace period.
        var idleSince: ContinuousClock.Instant?
    }

    struct Connection {
        /// The shared query of each subscription, by the subscription's id.
        var keys: [Int: SharedQueryKey] = [:]
        /// Subscriptions not sent yet, by the subscribe that made them, each with what it is
        /// owed: sent together at the end of the first round where all of them have an
        /// outcome.
        var starts: [Start] = []
    }

    struct Start {
        var ids: [Int]
        var plan: ResumePlan
    }

    enum Phase: Equatable {
        case idle
        /// Asked of the writer, not begun: what comes now is part of it.
        case scheduled
        /// Begun at `sequence`; `again` when something came since, for the next round.
        case running(sequence: UInt64, again: Bool)
    }

    /// A query a round fetches; `observe` when its region observation must start first.
    struct Work {
        var key: SharedQueryKey
        var job: Job
        var observe: Bool
    }

    /// What a round fetched for one query.
    struct Fetched {
        var key: SharedQueryKey
        var outcome: LiveOutcome
        /// Whether the query's region is observed from now on.
        var observed: Bool
    }

    private(set) var queries: [SharedQueryKey: Query] = [:]
    private(set) var connections: [ConnectionID: Connection] = [:]
    private(set) var phase = Phase.idle
    private var dirty: Set<SharedQueryKey> = []
    private var starting: Set<ConnectionID> = []

    /// Whether a round must be asked of the writer.
    typealias ScheduleRound = Bool

    // MARK: - Events

    /// A connection subscribes, by position (an event stream's subscriptions are its URL's):
    /// `subscriptions` gives the shared query of each, and the job that fetches it if it is
    /// new.
    mutating func subscribe(_ id: ConnectionID, _ subscriptions: [(key: SharedQueryKey, job: Job)], plan: ResumePlan) -> ScheduleRound {
        subscribe(id, subscriptions.enumerated().map { (index: $0.offset, key: $0.element.key, job: $0.element.job) }, plan: plan)
    }

    /// A connection adds subscriptions, with ids it does not use yet; their first values
    /// come together, at the end of a round.
    mutating func subscribe(_ id: ConnectionID, _ subscriptions: [(index: Int, key: SharedQueryKey, job: Job)], plan: ResumePlan) -> ScheduleRound {
        var connection = connections[id] ?? Connection()
        for (index, key, job) in subscriptions {
            if var query = queries[key] {
                query.subscribers.insert(id)
                query.idleSince = nil
                // A query whose region could not be computed tries again for a newcomer.
                if !query.observed { dirty.insert(key) }
                queries[key] = query
            } else {
                var query = Query(job: job)
                query.subscribers.insert(id)
                queries[key] = query
                dirty.insert(key)
            }
            connection.keys[index] = key
        }
        connection.starts.append(Start(ids: subscriptions.map(\.index), plan: plan))
        connections[id] = connection
        starting.insert(id)
        return requestRound()
    }

    /// A connection ended. Its queries without subscribers start their grace period.
    mutating func unsubscribe(_ id: ConnectionID, now: ContinuousClock.Instant) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        starting.remove(id)
        for key in Set(connection.keys.values) {
            leave(key, id, now: now)
        }
    }

    /// A connection drops the subscriptions of `ids`; a query it no longer subscribes to
    /// under any id loses it as a subscriber.
    mutating func unsubscribe(_ id: ConnectionID, _ ids: [Int], now: ContinuousClock.Instant) {
        guard var connection = connections[id] else { return }
        let removed = ids.compactMap { connection.keys.removeValue(forKey: $0) }
        for position in connection.starts.indices {
            connection.starts[position].ids.removeAll { ids.contains($0) }
        }
        connection.starts.removeAll { $0.ids.isEmpty }
        if connection.starts.isEmpty { starting.remove(id) }
        connections[id] = connection
        let kept = Set(connection.keys.values)
        for key in Set(removed) where !kept.contains(key) {
            leave(key, id, now: now)
        }
    }

    private mutating func leave(_ key: SharedQueryKey, _ id: ConnectionID, now: ContinuousClock.Instant) {
        guard var query = queries[key] else { return }
        query.subscribers.remove(id)
        if query.subscribers.isEmpty { query.idleSince = now }
        queries[key] = query
    }

    /// A commit changed the region of a query.
    mutating func regionDidChange(_ key: SharedQueryKey) -> ScheduleRound {
        guard queries[key] != nil else { return false }
        dirty.insert(key)
        return requestRound()
    }

    /// The writer begins the scheduled round at `sequence`: the queries to fetch.
    mutating func beginRound(sequence: UInt64) -> [Work] {
        precondition(phase == .scheduled, "a round begins only once scheduled")
        phase = .running(sequence: sequence, again: false)
        let work = dirty.compactMap { key -> Work? in
            guard let query = queries[key] else { return nil }
            // Counted as observed from now on, so that a newcomer meanwhile does not ask
            // again; the round's end says whether the observation started.
            queries[key]?.observed = true
            return Work(key: key, job: query.job, observe: !query.observed)
        }
        dirty.removeAll()
        return work
    }

    /// The round ended with these outcomes: what each connection is sent, and whether
    /// another round must be scheduled.
    mutating func finishRound(_ fetched: [Fetched]) -> (batches: [(ConnectionID, LiveBatch)], scheduleRound: ScheduleRound) {
        guard case .running(let sequence, let again) = phase else {
            preconditionFailure("a round finishes only once begun")
        }
        var changed: Set<SharedQueryKey> = []
        var affected: Set<ConnectionID> = starting
        for item in fetched {
            guard var query = queries[item.key] else { continue }
            query.observed = item.observed
            if query.result?.outcome != item.outcome {
                query.result = (item.outcome, sequence)
                changed.insert(item.key)
                affected.formUnion(query.subscribers)
            }
            queries[item.key] = query
        }

        var batches: [(ConnectionID, LiveBatch)] = []
        for id in affected {
            guard var connection = connections[id] else { continue }
            var entries: [LiveBatch.Entry] = []
            var reset = false
            // Subscriptions still starting get nothing else; a start is sent whole, once
            // every one of its queries has an outcome.
            var started: Set<Int> = []
            var waiting: [Start] = []
            for start in connection.starts {
                started.formUnion(start.ids)
                let results = start.ids.map { connection.keys[$0].flatMap { queries[$0]?.result } }
                guard results.allSatisfy({ $0 != nil }) else {
                    waiting.append(start)
                    continue
                }
                reset = reset || start.plan == .reset
                for (index, result) in zip(start.ids, results) {
                    guard let result, start.plan.sends(valueSince: result.since) else { continue }
                    entries.append(LiveBatch.Entry(index: index, outcome: result.outcome))
                }
            }
            for (index, key) in connection.keys where !started.contains(index) && changed.contains(key) {
                guard let result = queries[key]?.result else { continue }
                entries.append(LiveBatch.Entry(index: index, outcome: result.outcome))
            }
            connection.starts = waiting
            if waiting.isEmpty { starting.remove(id) }
            connections[id] = connection
            if reset || !entries.isEmpty {
                entries.sort { $0.index < $1.index }
                batches.append((id, LiveBatch(sequence: sequence, reset: reset, entries: entries)))
            }
        }

        if again || !dirty.isEmpty {
            phase = .scheduled
            return (batches, true)
        }
        phase = .idle
        return (batches, false)
    }

    /// Drops the queries whose last subscriber left at least `grace` ago: the hub stops
    /// observing them.
    mutating func expire(now: ContinuousClock.Instant, grace: Duration) -> [SharedQueryKey] {
        let expired = queries.compactMap { key, query -> SharedQueryKey? in
            guard query.subscribers.isEmpty, let idleSince = query.idleSince, idleSince + grace <= now else { return nil }
            return key
        }
        for key in expired {
            queries.removeValue(forKey: key)
            dirty.remove(key)
        }
        return expired
    }

    /// The query of `key`, if the registry holds it.
    func contains(_ key: SharedQueryKey) -> Bool {
        queries[key] != nil
    }

    // MARK: - Rounds

    private mutating func requestRound() -> ScheduleRound {
        switch phase {
        case .idle:
            phase = .scheduled
            return true
        case .scheduled:
            return false
        case .running(let sequence, _):
            phase = .running(sequence: sequence, again: true)
            return false
        }
    }
}

extension SubscriptionRegistry: Sendable where Job: Sendable {}
extension SubscriptionRegistry.Query: Sendable where Job: Sendable {}
extension SubscriptionRegistry.Work: Sendable where Job: Sendable {}
extension SubscriptionRegistry.Fetched: Sendable where Job: Sendable {}
extension SubscriptionRegistry.Connection: Sendable where Job: Sendable {}
extension SubscriptionRegistry.Start: Sendable where Job: Sendable {}
