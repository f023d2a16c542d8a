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

        let start: @Sendable (
            _ onError: @escaping @Sendable (any Error) -> Void,
            _ onChange: @escaping @Sendable (Output) -> Void) -> AnyDatabaseCancellable

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let subscription = ObservationSubscription(subscriber: subscriber, keepsValuesWithoutDemand: keepsValuesWithoutDemand, start: start)
            subscriber.receive(subscription: subscription)
        }
    }
}

/// The subscription of ``DatabasePublishers/Observation``.
private final class ObservationSubscription<S: Subscriber, Output>: Subscription, @unchecked Sendable  // mutable state behind `lock`
where S.Input == Output, S.Failure == any Error
{
    // Protected by lock.
    private let lock = NSRecursiveLock()
    private var subscriber: S?
    private var demand = Subscribers.Demand.none
    private var pending: Output?
    private var cancellable: AnyDatabaseCancellable?
    private var start: (@Sendable (
        _ onError: @escaping @Sendable (any Error) -> Void,
        _ onChange: @escaping @Sendable (Output) -> Void) -> AnyDatabaseCancellable)?

    private let keepsValuesWithoutDemand: Bool

    init(subscriber: S, keepsValuesWithoutDemand: Bool, start: @escaping @Sendable (
        _ onError: @escaping @Sendable (any Error) -> Void,
        _ onChange: @escaping @Sendable (Output) -> Void) -> AnyDatabaseCancellable)
    {
        self.subscriber = subscriber
        self.keepsValuesWithoutDemand = keepsValuesWithoutDemand
        self.start = start
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        self.demand += demand
        let start = self.start
        self.start = nil
        lock.unlock()
        if let start {
            // The observation starts with the first demand. The callbacks go through a
            // relay that does not mention the subscriber's type.
            let relay = Relay<Output>()
            relay.onValue = { [weak self] value in self?.receive(value) }
            relay.onError = { [weak self] error in self?.fail(error) }
            let cancellable = start({ error in relay.onError?(error) }, { value in relay.onValue?(value) })
            lock.withLock {
                if subscriber == nil { cancellable.cancel() } else { self.cancellable = cancellable }
            }
        } else {
            flushPending()
        }
    }

    private func receive(_ value: Output) {
        lock.lock()
        guard let subscriber else { return lock.unlock() }
        guard demand > 0 else {
            if keepsValuesWithoutDemand { pending = value }
            return lock.unlock()
        }
        demand -= 1
        lock.unlock()
        let more = subscriber.receive(value)
        lock.withLock { demand += more }
    }

    private func flushPending() {
        lock.lock()
        guard let value = pending, demand > 0 else { return lock.unlock() }
        pending = nil
        lock.unlock()
        receive(value)
    }

    private func fail(_ error: any Error) {
        lock.lock()
        let subscriber = self.subscriber
        self.subscriber = nil
        let cancellable = self.cancellable
        self.cancellable = nil
        lock.unlock()
        cancellable?.cancel()
        subscriber?.receive(completion: .failure(error))
    }

    func cancel() {
        lock.lock()
        subscriber = nil
        start = nil
        let cancellable = self.cancellable
        self.cancellable = nil
        lock.unlock()
        cancellable?.cancel()
    }
}

/// Forwards an observation's callbacks to its subscription.
private final class Relay<Output>: @unchecked Sendable {  // handlers set once before the observation starts, then only read
    // Set once, before the observation starts.
    var onValue: ((Output) -> Void)?
    var onError: ((any Error) -> Void)?
}

extension ValueObservation {
    /// A publisher of the observed values; see `start(in:scheduling:onError:onChange:)`.
    /// A fetch error completes the publisher with a failure.
    public func publisher(
        in writer: some DatabaseWriter,
        scheduling scheduler: some ValueObservationScheduler = .async(onQueue: .main)) -> DatabasePublishers.Observation<Value>
    {
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
