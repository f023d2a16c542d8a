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
        /// The shared query of each subscription, by position.
        var keys: [SharedQueryKey]
        /// What the connection is owed at the end of the next round, until it got it.
        var start: ResumePlan?
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

    /// A connection subscribes: `subscriptions` gives the shared query of each position,
    /// and the job that fetches it if it is new.
    mutating func subscribe(_ id: ConnectionID, _ subscriptions: [(key: SharedQueryKey, job: Job)], plan: ResumePlan) -> ScheduleRound {
        for (key, job) in subscriptions {
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
        }
        connections[id] = Connection(keys: subscriptions.map(\.key), start: plan)
        starting.insert(id)
        return requestRound()
    }

    /// A connection ended. Its queries without subscribers start their grace period.
    mutating func unsubscribe(_ id: ConnectionID, now: ContinuousClock.Instant) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        starting.remove(id)
        for key in connection.keys {
            guard var query = queries[key] else { continue }
            query.subscribers.remove(id)
            if query.subscribers.isEmpty { query.idleSince = now }
            queries[key] = query
        }
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
            guard let connection = connections[id] else { continue }
            if let plan = connection.start {
                // A newcomer waits until every one of its queries has an outcome.
                let results = connection.keys.map { queries[$0]?.result }
                guard results.allSatisfy({ $0 != nil }) else { continue }
                connections[id]?.start = nil
                starting.remove(id)
                let entries = results.enumerated().compactMap { index, result -> LiveBatch.Entry? in
                    guard let result, plan.sends(valueSince: result.since) else { return nil }
                    return LiveBatch.Entry(index: index, outcome: result.outcome)
                }
                if plan == .reset || !entries.isEmpty {
                    batches.append((id, LiveBatch(sequence: sequence, reset: plan == .reset, entries: entries)))
                }
            } else {
                let entries = connection.keys.enumerated().compactMap { index, key -> LiveBatch.Entry? in
                    guard changed.contains(key), let result = queries[key]?.result else { return nil }
                    return LiveBatch.Entry(index: index, outcome: result.outcome)
                }
                if !entries.isEmpty {
                    batches.append((id, LiveBatch(sequence: sequence, reset: false, entries: entries)))
                }
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
