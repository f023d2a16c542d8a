import Dispatch

/// Which jobs run, when at most `limit` may run at once, in the order they came: a pure
/// state machine (``ConcurrencyLimiter`` runs its decisions).
struct ConcurrencyLimitState<Job> {
    let limit: Int
    private(set) var running = 0
    private var pending = FIFO<Job>()

    init(limit: Int) {
        precondition(limit > 0, "a concurrency limit is at least 1")
        self.limit = limit
    }

    var pendingCount: Int { pending.count }

    /// A job comes: it runs now (returned) or waits.
    mutating func submit(_ job: Job) -> Job? {
        if running < limit {
            running += 1
            return job
        }
        pending.append(job)
        return nil
    }

    /// A job ended: the next one to run, if one waits.
    mutating func jobDidEnd() -> Job? {
        assert(running > 0, "a job ended that did not run")
        guard let job = pending.popFirst() else {
            running -= 1
            return nil
        }
        return job
    }
}

/// Runs jobs on dispatch's global threads, at most `limit` at once, in the order they came.
///
/// A ``DatabasePool``'s value observations fetch through one: during a burst of commits,
/// their fetches take at most the cores the writer does not need (one less than the
/// machine has), instead of crowding the writer out (W8).
///
/// A thread that ran a job runs the next waiting one itself: a burst of fetches costs one
/// thread wake-up, not one for each fetch and one more for its read (W8, where 20
/// observations fetch all along a bursty import: the writer's thread was woken, or
/// pre-empted by the threads it woke, at most commits).
final class ConcurrencyLimiter: Sendable {
    /// A job: it runs synchronously, on a global thread.
    typealias Job = @Sendable () -> Void

    private let state: LockedState<ConcurrencyLimitState<Job>>

    init(limit: Int) {
        state = LockedState(ConcurrencyLimitState(limit: limit))
    }

    /// Runs `job` now on a global thread, or once a running job ended.
    func run(_ job: @escaping Job) {
        guard let job = state.withLock({ $0.submit(job) }) else { return }
        DispatchQueue.global().async { [self] in drain(startingWith: job) }
    }

    /// Runs `job`, then the jobs that wait, until none does.
    private func drain(startingWith job: @escaping Job) {
        var next: Job? = job
        while let job = next {
            job()
            next = state.withLock { $0.jobDidEnd() }
        }
    }
}
