import Dispatch

/// Releases values out of any database access.
///
/// Work that runs inside an access (a value observation's fetch on the writer, say) may
/// hold the last reference to an application's closure, when the application cancelled
/// meanwhile from another thread. Released there, the closure would run the `deinit` of
/// what it captured inside the access, where a use of the database is refused (an access
/// started inside an access to the same connection would wait for itself). Such work
/// hands what it may hold last to ``release(_:)``.
///
/// The queue is serial, one for the process: a `deinit` that waits (for a long write, say)
/// delays the releases handed over after it. They are rare: only a cancellation that comes
/// while a fetch runs hands anything over, and a region observation's removal.
enum OutOfAccessRelease {
    private static let queue = DispatchQueue(label: "Ripple.OutOfAccessRelease")

    /// Releases `value` now when the current thread runs no database access, and is not
    /// on a connection's queue (where an access would wait for the queue itself); else
    /// soon, on a queue of its own, which runs no access.
    static func release(_ value: consuming Any) {
        if !AccessChain.isInsideAnyAccess && AccessContext.current == nil { return }
        // Behind a lock only to cross to the queue: the sender keeps no reference to it.
        let box = LockedState<Any?>(consume value)
        queue.async { _ = box.withLock { $0.take() } }
    }

    /// Waits until what was handed over so far is released (for tests).
    static func waitForPendingReleases() {
        queue.sync {}
    }
}
