import Foundation

/// A started observation, stopped by ``cancel()``.
public protocol DatabaseCancellable: Sendable {
    /// Stops the observation: no callback happens after `cancel()` returns, unless one is
    /// already running on another thread.
    func cancel()
}

/// A cancellable that cancels when it is deallocated.
///
/// Once cancelled, it lets its cancel action go, with what the action holds (the
/// observation and its handlers): a handler that keeps the cancellable, directly or not,
/// makes no reference cycle once the observation is cancelled.
public final class AnyDatabaseCancellable: DatabaseCancellable {
    // Only read and cleared under `lock`: that makes it safe to share across threads.
    private let lock = NSLock()
    private nonisolated(unsafe) var action: (@Sendable () -> Void)?

    /// A cancellable that runs `cancel` once, when cancelled or deallocated.
    public init(cancel: @escaping @Sendable () -> Void) {
        self.action = cancel
    }

    /// A cancellable that cancels `cancellable`.
    public convenience init(_ cancellable: some DatabaseCancellable) {
        self.init(cancel: { cancellable.cancel() })
    }

    deinit {
        cancel()
    }

    public func cancel() {
        let action: (@Sendable () -> Void)? = lock.withLock {
            defer { self.action = nil }
            return self.action
        }
        action?()
    }
}
