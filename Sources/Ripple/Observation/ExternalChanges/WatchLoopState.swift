/// The pure logic of ``WatchLoop``: its timers, whether its thread runs or waits, and when
/// another thread must wake it, apart from the thread and the system calls, so that it is
/// tested without them.
///
/// The loop's thread runs while something may wake it: a descriptor to read (the inotify
/// instance, while some database file is watched) or a timer. It waits for both at once,
/// until the earliest timer's deadline. A timer scheduled from another thread wakes it only
/// when it comes before the deadline the thread waits for; a timer scheduled by the loop's
/// own work (a file event that plans a check) costs no wake-up.
///
/// Times are in nanoseconds of one monotonic clock (`DispatchTime.uptimeNanoseconds`).
struct WatchLoopState<Action> {
    /// What the caller must do after a change.
    enum Effect: Equatable {
        case none
        /// Start a thread that runs the loop: none runs.
        case startThread
        /// Wake the waiting thread: it waits past the new deadline.
        case wake
    }

    /// What the loop's thread does next.
    enum Step {
        /// Run these actions (their deadline passed), then ask again.
        case run([Action])
        /// Wait for a wake-up (and for the descriptor to be readable, with `reader`), for
        /// at most this many nanoseconds (nil: without limit).
        case wait(timeout: UInt64?, reader: Bool)
        /// End the thread: nothing is left to wait for.
        case exit
    }

    private struct Timer {
        let deadline: UInt64
        let id: Int
        let action: Action
    }

    /// The timers, by deadline (then in the order they were scheduled).
    private var timers: [Timer] = []
    private var nextID = 0
    /// Whether a descriptor is read.
    private(set) var hasReader = false
    /// Whether a thread runs the loop.
    private(set) var isRunning = false
    /// While the thread waits: until when (`UInt64.max`: no deadline), and whether for the
    /// descriptor too.
    private var waiting: (until: UInt64, withReader: Bool)?
    /// Whether a wake-up was sent since the thread started waiting.
    private var wakeIsPending = false
    /// The steps that ran timers since the thread last looked at the descriptor.
    private var runsSinceReading = 0
    /// After this many steps of timers in a row, the thread looks at the descriptor
    /// (without waiting) before it runs more: timers that keep falling due do not keep
    /// file events unread.
    static var runsBeforeReading: Int { 8 }

    init() {}

    /// The number of timers scheduled (for tests).
    var timerCount: Int { timers.count }

    /// Schedules `action` at `deadline`; returns its identifier, for `cancel`.
    mutating func schedule(at deadline: UInt64, _ action: Action) -> (id: Int, effect: Effect) {
        nextID += 1
        let timer = Timer(deadline: deadline, id: nextID, action: action)
        let index = timers.firstIndex { $0.deadline > deadline } ?? timers.endIndex
        timers.insert(timer, at: index)
        return (nextID, effectOfNewWork(deadline: deadline))
    }

    /// Forgets the timer `id`, if it did not run yet. A thread that waits for it is woken:
    /// it waits for the next timer instead, or ends when nothing is left.
    mutating func cancel(_ id: Int) -> Effect {
        guard let index = timers.firstIndex(where: { $0.id == id }) else { return .none }
        timers.remove(at: index)
        guard index == 0, waiting != nil else { return .none }
        return wake()
    }

    /// On the loop's thread: the wait ended (a wake-up, the descriptor or the deadline).
    /// Work scheduled from now on, by the loop's own actions or from other threads, is seen
    /// at the next step without a wake-up.
    mutating func waitDidEnd() {
        waiting = nil
    }

    /// A descriptor starts or stops being read.
    mutating func setReader(_ hasReader: Bool) -> Effect {
        guard hasReader != self.hasReader else { return .none }
        self.hasReader = hasReader
        guard isRunning else { return startIfIdle() }
        // A waiting thread waits for the descriptor, or not: it must wait again, for the
        // descriptor, or to end when nothing is left.
        guard let waiting, waiting.withReader != hasReader else { return .none }
        return wake()
    }

    /// On the loop's thread, at `now`: the next step.
    mutating func nextStep(now: UInt64) -> Step {
        assert(isRunning, "only the loop's thread asks for its next step")
        waiting = nil
        wakeIsPending = false
        let due = timers.prefix { $0.deadline <= now }
        if !due.isEmpty {
            if hasReader && runsSinceReading >= Self.runsBeforeReading {
                runsSinceReading = 0
                waiting = (now, true)
                return .wait(timeout: 0, reader: true)
            }
            runsSinceReading += 1
            timers.removeFirst(due.count)
            return .run(due.map(\.action))
        }
        runsSinceReading = 0
        if let first = timers.first {
            waiting = (first.deadline, hasReader)
            return .wait(timeout: first.deadline - now, reader: hasReader)
        }
        guard hasReader else {
            isRunning = false
            return .exit
        }
        waiting = (.max, true)
        return .wait(timeout: nil, reader: true)
    }

    /// The thread that `.startThread` asked for could not start (see `startIfIdle`).
    mutating func threadDidNotStart() {
        isRunning = false
        waiting = nil
        wakeIsPending = false
    }

    /// `.startThread` when work waits and no thread runs (new work, or a thread that could
    /// not start).
    mutating func startIfIdle() -> Effect {
        guard !isRunning, hasReader || !timers.isEmpty else { return .none }
        isRunning = true
        return .startThread
    }

    private mutating func effectOfNewWork(deadline: UInt64) -> Effect {
        guard isRunning else { return startIfIdle() }
        // Running its steps (not waiting): the thread sees the new work at its next step.
        guard let waiting, deadline < waiting.until else { return .none }
        return wake()
    }

    private mutating func wake() -> Effect {
        guard !wakeIsPending else { return .none }
        wakeIsPending = true
        return .wake
    }
}
