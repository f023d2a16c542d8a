import Dispatch
import Foundation
import OpenCombineShim
import Ripple

/// Namespace for Ripple's publishers.
public enum DatabasePublishers {}

extension DatabasePublishers {
    /// A publisher of an observation: starts it on subscription, stops it on cancellation.
    ///
    /// It honors demand: values that come while the subscriber asks for none are kept, the
    /// last one only, and delivered when demand comes, so that the subscriber always ends up
    /// with the latest state.
    public struct Observation<Output>: Publisher {
        public typealias Failure = any Error

        /// Whether a value that comes without demand is kept for later (values), or dropped
        /// (database connections, which must not be used later).
        let keepsValuesWithoutDemand: Bool

        let start:
            @Sendable (
                _ onError: @escaping @Sendable (any Error) -> Void,
                _ onChange: @escaping @Sendable (Output) -> Void
            ) -> AnyDatabaseCancellable

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let subscription = ObservationSubscription(subscriber: subscriber, keepsValuesWithoutDemand: keepsValuesWithoutDemand, start: start)
            subscriber.receive(subscription: subscription)
        }
    }
}

/// What an observation's callbacks reach: its subscription, without the subscriber's type,
/// whose metatype is not `Sendable`.
private protocol ObservationSink<Output>: AnyObject, Sendable {
    associatedtype Output
    func receive(_ value: Output)
    func fail(_ error: any Error)
}

/// The subscription of ``DatabasePublishers/Observation``.
private final class ObservationSubscription<S: Subscriber, Output>: Subscription, ObservationSink
where S.Input == Output, S.Failure == any Error {
    typealias Start =
        @Sendable (
            _ onError: @escaping @Sendable (any Error) -> Void,
            _ onChange: @escaping @Sendable (Output) -> Void
        ) -> AnyDatabaseCancellable

    private struct State {
        var subscriber: S?
        var demand = Subscribers.Demand.none
        var pending: Output?
        var cancellable: AnyDatabaseCancellable?
        var start: Start?
    }

    private let state: LockedState<State>
    private let keepsValuesWithoutDemand: Bool

    init(subscriber: S, keepsValuesWithoutDemand: Bool, start: @escaping Start) {
        state = LockedState(State(subscriber: subscriber, start: start))
        self.keepsValuesWithoutDemand = keepsValuesWithoutDemand
    }

    func request(_ demand: Subscribers.Demand) {
        let start = state.withLock { state in
            state.demand += demand
            return state.start.take()
        }
        guard let start else { return flushPending() }
        // The observation starts with the first demand.
        let sink: any ObservationSink<Output> = self
        let cancellable = start({ [weak sink] error in sink?.fail(error) }, { [weak sink] value in sink?.receive(value) })
        let isCancelled = state.withLock { state in
            guard state.subscriber != nil else { return true }
            state.cancellable = cancellable
            return false
        }
        if isCancelled { cancellable.cancel() }
    }

    fileprivate func receive(_ value: Output) {
        let subscriber: S? = state.withLock { state in
            guard let subscriber = state.subscriber else { return nil }
            guard state.demand > 0 else {
                if keepsValuesWithoutDemand { state.pending = value }
                return nil
            }
            state.demand -= 1
            return subscriber
        }
        guard let subscriber else { return }
        let more = subscriber.receive(value)
        state.withLock { $0.demand += more }
    }

    private func flushPending() {
        let value: Output? = state.withLock { state in
            guard state.demand > 0 else { return nil }
            return state.pending.take()
        }
        if let value { receive(value) }
    }

    fileprivate func fail(_ error: any Error) {
        let (subscriber, cancellable) = state.withLock { state in
            (state.subscriber.take(), state.cancellable.take())
        }
        cancellable?.cancel()
        subscriber?.receive(completion: .failure(error))
    }

    func cancel() {
        let cancellable = state.withLock { state in
            state.subscriber = nil
            state.start = nil
            return state.cancellable.take()
        }
        cancellable?.cancel()
    }
}

extension ValueObservation {
    /// A publisher of the observed values; see `start(in:scheduling:onError:onChange:)`.
    /// A fetch error completes the publisher with a failure.
    public func publisher(
        in writer: some DatabaseWriter,
        scheduling scheduler: some ValueObservationScheduler = .async(onQueue: .main)
    ) -> DatabasePublishers.Observation<Value> {
        DatabasePublishers.Observation(keepsValuesWithoutDemand: true) { onError, onChange in
            self.start(in: writer, scheduling: scheduler, onError: onError, onChange: onChange)
        }
    }
}

extension SharedValueObservation {
    /// A publisher of the shared values: each subscription is a subscriber of the shared
    /// observation (see ``SharedValueObservation/start(onError:onChange:)``).
    public func publisher() -> DatabasePublishers.Observation<Value> {
        DatabasePublishers.Observation(keepsValuesWithoutDemand: true) { onError, onChange in
            self.start(onError: onError, onChange: onChange)
        }
    }
}

extension DatabaseRegionObservation {
    /// A publisher of the database connection, emitted on the writer's queue right after
    /// each impactful transaction; see `start(in:onError:onChange:)`. The connection must
    /// not leave the subscriber's closure. Changes that happen while the subscriber asks for
    /// no value are not delivered.
    ///
    /// ```swift
    /// let cancellable = observation.publisher(in: dbQueue).sink { completion in
    ///     // Handle completion
    /// } receiveValue: { (db: Database) in
    ///     print("Players were changed")
    /// }
    /// ```
    public func publisher(in writer: some DatabaseWriter) -> DatabasePublishers.Observation<Database> {
        publisher(in: writer, startImmediately: false)
    }

    /// Same as ``publisher(in:)``; with `startImmediately`, the connection is also emitted
    /// right upon subscription, synchronously, in a writer access.
    public func publisher(in writer: some DatabaseWriter, startImmediately: Bool) -> DatabasePublishers.Observation<Database> {
        DatabasePublishers.Observation(keepsValuesWithoutDemand: false) { onError, onChange in
            if startImmediately {
                writer.unsafeReentrantWrite { db in onChange(db) }
            }
            return self.start(in: writer, onError: onError, onChange: onChange)
        }
    }
}
