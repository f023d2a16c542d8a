/// A started observation, stopped by ``cancel()``.
public protocol DatabaseCancellable: Sendable {
    /// Stops the observation: no callback happens after `cancel()` returns, unless one is
    /// already running on another thread.
    func cancel()
}

/// A cancellable that cancels when it is deallocated.
public final class AnyDatabaseCancellable: DatabaseCancellable {
    private let cancelAction: Cancellation
    private let action: @Sendable () -> Void

    /// A cancellable that runs `cancel` once, when cancelled or deallocated.
    public init(cancel: @escaping @Sendable () -> Void) {
        self.cancelAction = Cancellation()
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
        if cancelAction.cancel() { action() }
    }
}
