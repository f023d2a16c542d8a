/// A started observation, stopped by ``cancel()``.
public protocol DatabaseCancellable: Sendable {
    /// Stops the observation: no callback happens after `cancel()` returns, unless one is
    /// already running on another thread.
    func cancel()
}

/// A cancellable that cancels when it is deallocated.
///
/// Once cancelled, the handlers of the observation are let go (with the cancel action, for
/// a cancellable made from one): a handler that keeps the cancellable, directly or not,
/// makes no reference cycle once the observation is cancelled.
public final class AnyDatabaseCancellable: DatabaseCancellable {
    private enum Base {
        /// The action, until it runs. (A `LockedState`, one allocation: an `NSLock` is two
        /// on Linux, and every observation has a cancellable, W6m.)
        case action(LockedState<(@Sendable () -> Void)?>)
        /// A value observation, which cancels once and then lets its handlers go itself:
        /// kept as it is, without an action and a lock of its own (W6m).
        case observation(any AnyObject & DatabaseCancellable)
    }

    private let base: Base

    /// A cancellable that runs `cancel` once, when cancelled or deallocated.
    public init(cancel: @escaping @Sendable () -> Void) {
        base = .action(LockedState(cancel))
    }

    /// A cancellable of an observation whose `cancel()` may be called several times, has
    /// an effect the first time only, and lets the observation's handlers go.
    init(observation: some AnyObject & DatabaseCancellable) {
        base = .observation(observation)
    }

    /// A cancellable that cancels `cancellable`.
    public convenience init(_ cancellable: some DatabaseCancellable) {
        self.init(cancel: { cancellable.cancel() })
    }

    deinit {
        cancel()
    }

    public func cancel() {
        switch base {
        case .action(let action):
            let action = action.withLock { action in
                defer { action = nil }
                return action
            }
            action?()
        case .observation(let observation):
            observation.cancel()
        }
    }
}
