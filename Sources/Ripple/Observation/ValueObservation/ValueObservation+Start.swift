import Dispatch
import Foundation

extension ValueObservation {
    /// Starts the observation.
    ///
    /// - parameter reader: a ``DatabaseQueue`` or a ``DatabasePool``, which deliver a value
    ///   after each transaction that changed it; or a reader that does not change, such
    ///   as a ``DatabaseSnapshot``, which delivers one value.
    /// - parameter scheduler: `.async(onQueue:)` (the default, on the main queue),
    ///   `.immediate` (the initial value synchronously, during `start`, which must then be
    ///   called on the main actor), or `.mainActor`.
    /// - parameter onError: called when a fetch fails; the observation goes on.
    /// - parameter onChange: called with each fresh value.
    /// - returns: a cancellable that stops the observation, also when deallocated.
    @preconcurrency
    public func start(
        in reader: some DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .async(onQueue: .main),
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Value) -> Void
    ) -> AnyDatabaseCancellable {
        start(in: reader, scheduling: scheduler as any ValueObservationScheduler, onError: onError, onChange: onChange)
    }

    /// Starts the observation, and delivers its values on the main actor, to main-actor
    /// isolated handlers: the way of an `@Observable` model.
    ///
    /// ```swift
    /// @Observable @MainActor final class PlayerList {
    ///     var players: [Player] = []
    ///     private var cancellable: AnyDatabaseCancellable?
    ///
    ///     func observe(_ dbQueue: DatabaseQueue) {
    ///         cancellable = ValueObservation
    ///             .tracking { db in try Player.fetchAll(db) }
    ///             .start(in: dbQueue, scheduling: .immediate) { error in
    ///                 print(error)
    ///             } onChange: { [weak self] players in
    ///                 self?.players = players
    ///             }
    ///         // With .immediate, `players` is set here already.
    ///     }
    /// }
    /// ```
    ///
    /// It may be called from any code, as GRDB's test suites do from nonisolated test
    /// methods that run on the main thread: `.immediate` delivers the initial value during
    /// the call when it runs on the main actor; called elsewhere, the observation does not
    /// start, and `onError` gets a ``DatabaseError`` (`SQLITE_MISUSE`) on the main actor.
    ///
    /// - parameter reader: a ``DatabaseQueue`` or a ``DatabasePool`` (or a reader that does
    ///   not change, which delivers one value).
    /// - parameter scheduler: `.mainActor` (the default: every value asynchronously) or
    ///   `.immediate` (the initial value synchronously, during `start`).
    /// - parameter onError: called on the main actor when a fetch fails; the observation
    ///   goes on.
    /// - parameter onChange: called on the main actor with each fresh value.
    /// - returns: a cancellable that stops the observation, also when deallocated.
    @preconcurrency
    public func start(
        in reader: some DatabaseReader,
        scheduling scheduler: some ValueObservationMainActorScheduler = .mainActor,
        onError: @escaping @MainActor (any Error) -> Void,
        onChange: @escaping @MainActor (Value) -> Void
    ) -> AnyDatabaseCancellable {
        // The scheduler delivers on the main queue, the main actor's executor; the initial
        // value of .immediate comes during this call, only when it runs on the main actor.
        start(
            in: reader,
            scheduling: scheduler as any ValueObservationScheduler,
            onError: { error in Self.onMainActor { onError(error) } },
            onChange: { value in Self.onMainActor { onChange(value) } })
    }

    /// Runs `body` on the main actor: now when the caller runs there, else asynchronously.
    private static func onMainActor(_ body: @escaping @MainActor () -> Void) {
        if MainActorCheck.isOnMainActor {
            MainActor.assumeIsolated(body)
        } else {
            DispatchQueue.main.async { MainActor.assumeIsolated(body) }
        }
    }

    /// The existential form, which both public variants call.
    private func start(
        in reader: some DatabaseReader,
        scheduling scheduler: any ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Value) -> Void
    ) -> AnyDatabaseCancellable {
        guard let writer = reader as? any DatabaseWriter else {
            return UnchangingReaderObservation.start(
                self, in: reader, scheduler: scheduler, onError: onError, onChange: onChange)
        }
        let runner = TypedValueObservationRunner(
            writer: writer, observation: self, scheduler: scheduler,
            onError: onError, onChange: onChange)
        runner.start()
        return AnyDatabaseCancellable(observation: runner)
    }
}
