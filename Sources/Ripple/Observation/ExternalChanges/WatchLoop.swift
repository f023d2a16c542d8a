#if os(Linux) || os(Android)
import CRippleSupport
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The process's one thread that waits for file events and timers of the checks for other
/// processes' commits (Linux): the inotify instance of ``INotifyCenter`` and the check
/// timers of every ``ExternalChangeMonitor``, in one `ppoll`.
///
/// Why not dispatch: a dispatch read source and `asyncAfter` each go through libdispatch's
/// manager thread, which wakes a worker thread, whose end wakes the manager again. Measured
/// with `perf stat` on W5b (10,000 one-row transactions of the process's own, with one
/// observer), the checks that its own commits' file events cause cost about 13 context
/// switches each; here a file event wakes this thread once, and the check it plans once
/// more. Each wake-up steals the writer's core on a machine of two.
///
/// The thread runs only while something may wake it (a watched file or a timer; see
/// ``WatchLoopState``): no thread while nothing observes.
final class WatchLoop: Sendable {
    static let shared = WatchLoop()

    typealias Action = @Sendable () -> Void

    private struct Locked {
        var state = WatchLoopState<Action>()
        var reader: (descriptor: Int32, handler: Action)?
        /// Wakes the waiting thread (a byte written to `write`). Made at the first use, and
        /// tried again at the next one if it could not be (no descriptor left): meanwhile
        /// timers fall back to dispatch, and file watches are refused (the safety poll
        /// remains).
        var wakePipe: (read: Int32, write: Int32)?

        mutating func makeWakePipeIfNeeded() -> Bool {
            if wakePipe != nil { return true }
            var descriptors: [Int32] = [-1, -1]
            guard ripple_nonblocking_pipe(&descriptors) == 0 else { return false }
            wakePipe = (descriptors[0], descriptors[1])
            return true
        }
    }

    private let locked = LockedState(Locked())

    init() {}

    /// A timer: `cancel` forgets it.
    struct Timer: Sendable {
        fileprivate let id: Int
    }

    /// Runs `action` on the loop's thread at `deadline` (`DispatchTime.uptimeNanoseconds`),
    /// or just after. Actions must be short: file events and other timers wait for them.
    @discardableResult
    func schedule(at deadline: UInt64, _ action: @escaping Action) -> Timer {
        let scheduled = locked.withLock { $0.makeWakePipeIfNeeded() ? $0.state.schedule(at: deadline, action) : nil }
        guard let scheduled else {
            // (No pipe: a dispatch timer, which cannot be cancelled; timers' actions check
            // whether they are still wanted.)
            DispatchQueue.global().asyncAfter(deadline: DispatchTime(uptimeNanoseconds: deadline), execute: action)
            return Timer(id: 0)
        }
        perform(scheduled.effect)
        return Timer(id: scheduled.id)
    }

    /// Runs `action` on the loop's thread after `nanoseconds`.
    @discardableResult
    func schedule(after nanoseconds: UInt64, _ action: @escaping Action) -> Timer {
        schedule(at: DispatchTime.now().uptimeNanoseconds &+ nanoseconds, action)
    }

    func cancel(_ timer: Timer) {
        perform(locked.withLock { $0.state.cancel(timer.id) })
    }

    /// Calls `handler` on the loop's thread whenever `descriptor` is readable (the handler
    /// reads it until it would block); nil stops. One reader at a time: the inotify
    /// center's. False when the loop cannot read now.
    func setReader(_ reader: (descriptor: Int32, handler: Action)?) -> Bool {
        let effect = locked.withLock { locked -> WatchLoopState<Action>.Effect? in
            guard reader == nil || locked.makeWakePipeIfNeeded() else { return nil }
            locked.reader = reader
            return locked.state.setReader(reader != nil)
        }
        guard let effect else { return false }
        perform(effect)
        return true
    }

    /// Whether a thread runs the loop (for tests).
    var isRunning: Bool { locked.withLock { $0.state.isRunning } }

    private func perform(_ effect: WatchLoopState<Action>.Effect) {
        switch effect {
        case .none:
            break
        case .wake:
            // (The pipe exists: only work added through it asks for wake-ups. A full pipe
            // has a wake-up pending already.)
            guard let wakeWrite = locked.withLock({ $0.wakePipe?.write }) else { return }
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        case .startThread:
            startThread()
        }
    }

    /// Starts the loop's thread. If the system refuses, tries again a little later: timers
    /// and file events wait meanwhile, and none is lost.
    private func startThread() {
        let context = _CallbackContext.retained(self)
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        guard pthread_create(&thread, &attributes, watchLoopThreadMain, context) != 0 else { return }
        _CallbackContext<WatchLoop>.release(context)
        locked.withLock { $0.state.threadDidNotStart() }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { [self] in
            perform(locked.withLock { $0.state.startIfIdle() })
        }
    }

    /// The loop's thread.
    fileprivate func run() {
        guard let wakeRead = locked.withLock({ $0.wakePipe?.read }) else { preconditionFailure("the thread starts once the pipe exists") }
        while true {
            let (step, reader) = locked.withLock { ($0.state.nextStep(now: DispatchTime.now().uptimeNanoseconds), $0.reader) }
            switch step {
            case .exit:
                return
            case .run(let actions):
                for action in actions { action() }
            case .wait(let timeout, let waitsForReader):
                let readerDescriptor: Int32 = waitsForReader ? (reader?.descriptor ?? -1) : -1
                let timeoutNanoseconds: Int64 = timeout.map { Int64(clamping: $0) } ?? -1
                let ready = ripple_wait_readable(readerDescriptor, wakeRead, timeoutNanoseconds)
                // (What the reader's handler schedules from now on needs no wake-up.)
                locked.withLock { $0.state.waitDidEnd() }
                if ready & 2 != 0 { drainWakeUps(wakeRead) }
                if ready & 1 != 0, let reader { reader.handler() }
            }
        }
    }

    private func drainWakeUps(_ descriptor: Int32) {
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let count: Int = bytes.withUnsafeMutableBytes { buffer in read(descriptor, buffer.baseAddress, buffer.count) }
            if count <= 0 { return }
        }
    }
}

/// The loop's thread: its context is the loop, retained for it by `startThread`.
private func watchLoopThreadMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    let loop = _CallbackContext<WatchLoop>.takeRetained(context!)
    ripple_set_thread_name("Ripple.watch")  // (what `ps` and debuggers show)
    loop.run()
    return nil
}
#endif
