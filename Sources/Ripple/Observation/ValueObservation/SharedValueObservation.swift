import Dispatch
import Foundation

/// How long the database observation of a ``SharedValueObservation`` lasts.
public enum SharedValueObservationExtent: Sendable {
    /// One database observation, which stops when the shared observation is deallocated
    /// and all its subscriptions are cancelled. An error ends it for good: later
    /// subscribers get that error at once. To recover, make a new shared observation.
    case observationLifetime

    /// The database observation stops when the last subscription is cancelled, or on an
    /// error, and starts again with the next subscription: subscribing again recovers from
    /// an error.
    case whileObserved
}

extension ValueObservation {
    /// An observation that all its subscribers share: one database observation, one fetch
    /// per change, the value fanned out to every subscriber.
    ///
    /// ```swift
    /// let players = ValueObservation
    ///     .tracking { db in try Player.fetchAll(db) }
    ///     .shared(in: dbQueue)
    /// let c1 = players.start(onError: { _ in }, onChange: { print("screen 1: \($0)") })
    /// let c2 = players.start(onError: { _ in }, onChange: { print("screen 2: \($0)") })
    /// ```
    ///
    /// The database observation starts with the first subscriber. A subscriber that comes
    /// later gets the last value at once (during `start` with `.immediate`, else through
    /// the scheduler). Values come through `scheduler`, on the main queue by default;
    /// with `.immediate`, the first subscriber gets the first value during `start`.
    ///
    /// - parameter reader: The database to observe.
    /// - parameter scheduler: Where values are delivered: the main queue by default.
    /// - parameter extent: `.whileObserved` (the default) stops observing when the last
    ///   subscriber cancels, and on an error; `.observationLifetime` observes until the
    ///   shared observation is deallocated and all subscriptions are cancelled.
    @preconcurrency
    public func shared(
        in reader: some DatabaseReader,
        scheduling scheduler: some ValueObservationScheduler = .async(onQueue: .main),
        extent: SharedValueObservationExtent = .whileObserved
    ) -> SharedValueObservation<Value> {
        SharedValueObservation(scheduling: scheduler, extent: extent) { onError, onChange in
            self.start(in: reader, scheduling: scheduler, onError: onError, onChange: onChange)
        }
    }
}

/// A value observation shared by several subscribers: see
/// ``ValueObservation/shared(in:scheduling:extent:)``.
public final class SharedValueObservation<Value: Sendable>: Sendable {
    public typealias Element = Value

    fileprivate typealias StartObservation =
        @Sendable (
            _ onError: @escaping @Sendable (any Error) -> Void,
            _ onChange: @escaping @Sendable (Value) -> Void
        ) -> AnyDatabaseCancellable

    private struct Subscriber {
        let onError: @Sendable (any Error) -> Void
        let onChange: @Sendable (Value) -> Void
    }

    private struct Storage {
        var state: SharedValueObservationState<Value>
        var subscribers: [UInt64: Subscriber] = [:]
        var cancellable: AnyDatabaseCancellable?
    }

    private let scheduler: any ValueObservationScheduler
    private let startObservation: StartObservation
    private let storage: LockedState<Storage>

    fileprivate init(
        scheduling scheduler: some ValueObservationScheduler,
        extent: SharedValueObservationExtent,
        startObservation: @escaping StartObservation
    ) {
        self.scheduler = scheduler
        self.startObservation = startObservation
        self.storage = LockedState(Storage(state: SharedValueObservationState(extent: extent)))
    }

    /// Subscribes; the database observation starts with the first subscriber. The
    /// subscription keeps the shared observation until it is cancelled.
    @preconcurrency
    public func start(
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Value) -> Void
    ) -> AnyDatabaseCancellable {
        let (id, action) = storage.withLock { storage in
            let (id, action) = storage.state.subscribe()
            storage.subscribers[id] = Subscriber(onError: onError, onChange: onChange)
            return (id, action)
        }
        switch action {
        case .startObservation(let generation):
            // (The observation may deliver during its start, with `.immediate`: no lock here.)
            let cancellable = startObservation(
                { [weak self] error in self?.receive(error: error) },
                { [weak self] value in self?.receive(value) })
            let kept = storage.withLock { storage in
                guard storage.state.keepsObservation(of: generation) else { return false }
                storage.cancellable = cancellable
                return true
            }
            if !kept { cancellable.cancel() }
        case .deliverLast:
            // The result is read when the delivery runs: the latest one, unless a newer
            // value reached the subscriber first.
            let deliver: @Sendable () -> Void = { [self] in
                switch storage.withLock({ $0.state.takeLastResult(for: id) }) {
                case .success(let value)?: onChange(value)
                case .failure(let error)?: onError(error)
                case nil: break
                }
            }
            if scheduler.immediateInitialValue() { deliver() } else { scheduler.schedule(deliver) }
        case .none:
            break
        }
        return AnyDatabaseCancellable { self.cancel(id) }
    }

    /// The values, as an asynchronous sequence.
    public func values(
        bufferingPolicy: AsyncValueObservation<Value>.BufferingPolicy = .unbounded
    ) -> AsyncValueObservation<Value> {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange in
            self.start(onError: onError, onChange: onChange)
        }
    }

    private func receive(_ value: Value) {
        let subscribers = storage.withLock { storage in
            storage.state.receive(value).compactMap { storage.subscribers[$0] }
        }
        for subscriber in subscribers { subscriber.onChange(value) }
    }

    private func receive(error: any Error) {
        let (subscribers, cancellable) = storage.withLock { storage -> ([Subscriber], AnyDatabaseCancellable?) in
            let (ids, stops) = storage.state.receive(error: error)
            let subscribers = ids.compactMap { storage.subscribers.removeValue(forKey: $0) }
            return (subscribers, stops ? storage.cancellable.take() : nil)
        }
        cancellable?.cancel()
        for subscriber in subscribers { subscriber.onError(error) }
    }

    private func cancel(_ id: UInt64) {
        let cancellable = storage.withLock { storage -> AnyDatabaseCancellable? in
            storage.subscribers[id] = nil
            return storage.state.unsubscribe(id) ? storage.cancellable.take() : nil
        }
        cancellable?.cancel()
    }
}
