/// When the checks for other processes' commits run: the pure logic of
/// ``ExternalChangeMonitor``, apart from its timers and queues, so that it is tested
/// without threads.
///
/// A file event (or the safety poll) asks for a check. Checks run one at a time, with an
/// interval between their starts: a burst of commits costs few checks. The interval is
/// `minimumInterval` after a check that found something to tell, and doubles, up to
/// `maximumInterval`, after each check that found nothing: the file events of the
/// process's own commits (which checks never tell) then cost few checks, and a commit of
/// another process waits `maximumInterval` at most. No request is ever dropped: a request
/// that comes while a check runs makes another check run after it, since that check may
/// have read the database before the commit that caused the request.
struct ExternalCheckScheduler {
    enum Action: Equatable {
        /// Run a check now.
        case check
        /// Run a check at this time (in the same unit as the times given).
        case checkAt(UInt64)
        case none
    }

    /// The shortest and longest times between the starts of two checks.
    let minimumInterval: UInt64
    let maximumInterval: UInt64
    /// The time between the start of the last check and the start of the next one.
    private(set) var interval: UInt64

    private enum State: Equatable {
        case idle
        /// A check is planned (now or at a time).
        case planned
        /// A check runs; `again` when a request came meanwhile.
        case running(again: Bool)
    }

    private var state = State.idle
    private var lastStart: UInt64?

    init(minimumInterval: UInt64, maximumInterval: UInt64) {
        assert(minimumInterval <= maximumInterval, "intervals in order")
        self.minimumInterval = minimumInterval
        self.maximumInterval = maximumInterval
        self.interval = minimumInterval
    }

    /// Something may have changed the file.
    mutating func request(now: UInt64) -> Action {
        switch state {
        case .planned, .running(again: true):
            return .none
        case .running(again: false):
            state = .running(again: true)
            return .none
        case .idle:
            state = .planned
            return plan(now: now)
        }
    }

    /// The planned check starts; false when it must not (monitoring stopped since it was
    /// planned).
    mutating func checkWillStart(now: UInt64) -> Bool {
        guard state == .planned else { return false }
        state = .running(again: false)
        lastStart = now
        return true
    }

    /// The check ended, and found something to tell (or to check again soon), or not:
    /// maybe another must run.
    mutating func checkDidEnd(now: UInt64, foundChanges: Bool) -> Action {
        // (Monitoring may have stopped while the check ran.)
        guard case .running(let again) = state else { return .none }
        interval = foundChanges ? minimumInterval : min(interval &* 2, maximumInterval)
        guard again else {
            state = .idle
            return .none
        }
        state = .planned
        return plan(now: now)
    }

    /// Forgets everything: monitoring stopped.
    mutating func reset() {
        state = .idle
        lastStart = nil
        interval = minimumInterval
    }

    private func plan(now: UInt64) -> Action {
        guard let lastStart, now < lastStart &+ interval else { return .check }
        return .checkAt(lastStart &+ interval)
    }
}
