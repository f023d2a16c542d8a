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
final class WatchLoop: @unchecked Sendable {  // mutable state behind `lock`; the pipe's descriptors are constant
    static let shared = WatchLoop()

    typealias Action = @Sendable () -> Void

    private let lock = NSLock()
    private var state = WatchLoopState<Action>()
    private var reader: (descriptor: Int32, handler: Action)?
    /// Wakes the waiting thread (a byte written to `wakeWrite`); nil when no pipe could be
    /// made (timers then wait for the dispatch fallback, see `schedule`).
    private let wakeRead: Int32?
    private let wakeWrite: Int32?

    init() {
        var descriptors: [Int32] = [-1, -1]
        if ripple_nonblocking_pipe(&descriptors) == 0 {
            wakeRead = descriptors[0]
            wakeWrite = descriptors[1]
        } else {
            wakeRead = nil
            wakeWrite = nil
        }
    }

    /// A timer: `cancel` forgets it.
    struct Timer: Sendable {
        fileprivate let id: Int
    }

    /// Runs `action` on the loop's thread at `deadline` (`DispatchTime.uptimeNanoseconds`),
    /// or just after. Actions must be short: file events and other timers wait for them.
    @discardableResult
    func schedule(at deadline: UInt64, _ action: @escaping Action) -> Timer {
        guard wakeRead != nil else {
            // (No pipe: a dispatch timer instead, which needs no wake-up.)
            DispatchQueue.global().asyncAfter(deadline: DispatchTime(uptimeNanoseconds: deadline), execute: action)
            return Timer(id: 0)
        }
        let (id, effect) = lock.withLock { state.schedule(at: deadline, action) }
        perform(effect)
        return Timer(id: id)
    }

    /// Runs `action` on the loop's thread after `nanoseconds`.
    @discardableResult
    func schedule(after nanoseconds: UInt64, _ action: @escaping Action) -> Timer {
        schedule(at: DispatchTime.now().uptimeNanoseconds &+ nanoseconds, action)
    }

    func cancel(_ timer: Timer) {
        lock.withLock { state.cancel(timer.id) }
    }

    /// Calls `handler` on the loop's thread whenever `descriptor` is readable (the handler
    /// reads it until it would block); nil stops. One reader at a time: the inotify center's.
    func setReader(_ reader: (descriptor: Int32, handler: Action)?) -> Bool {
        guard wakeRead != nil else { return false }
        let effect = lock.withLock {
            self.reader = reader
            return state.setReader(reader != nil)
        }
        perform(effect)
        return true
    }

    /// Whether a thread runs the loop (for tests).
    var isRunning: Bool { lock.withLock { state.isRunning } }

    private func perform(_ effect: WatchLoopState<Action>.Effect) {
        switch effect {
        case .none:
            break
        case .wake:
            var byte: UInt8 = 1
            _ = write(wakeWrite!, &byte, 1)
        case .startThread:
            let thread = Thread { [self] in
                Thread.current.name = "Ripple.watch"  // (what `ps` and debuggers show)
                run()
            }
            thread.start()
        }
    }

    private func run() {
        while true {
            let (step, reader) = lock.withLock { (state.nextStep(now: DispatchTime.now().uptimeNanoseconds), self.reader) }
            switch step {
            case .exit:
                return
            case .run(let actions):
                for action in actions { action() }
            case .wait(let timeout, let waitsForReader):
                let readerDescriptor = waitsForReader ? (reader?.descriptor ?? -1) : -1
                let timeoutNanoseconds = timeout.map { Int64(clamping: $0) } ?? -1
                let ready = ripple_wait_readable(readerDescriptor, wakeRead!, timeoutNanoseconds)
                if ready & 2 != 0 { drainWakeUps() }
                if ready & 1 != 0, let reader { reader.handler() }
            }
        }
    }

    private func drainWakeUps() {
        var bytes = (UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { read(wakeRead!, $0.baseAddress, $0.count) }) > 0 {}
    }
}
#endif
