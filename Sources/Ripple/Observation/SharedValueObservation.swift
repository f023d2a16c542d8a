import Dispatch
import Foundation

extension ValueObservation {
    /// An observation that all its subscribers share: one database observation, one fetch
    /// per change, the value fanned out to every subscriber.
    ///
    /// ```swift
    /// let players = ValueObservation.tracking { db in try Player.fetchAll(db) }.shared(in: dbQueue)
    /// let c1 = players.start(onError: { _ in }, onChange: { print("screen 1: \($0)") })
    /// let c2 = players.start(onError: { _ in }, onChange: { print("screen 2: \($0)") })
    /// ```
    ///
    /// The database observation starts with the first subscriber and stops when the last one
    /// cancels. A subscriber that comes later gets the last value at once. Values are
    /// delivered on a serial queue of the shared observation.
    public func shared(in writer: some DatabaseWriter) -> SharedValueObservation<Value> {
        SharedValueObservation(observation: self, writer: writer)
    }
}

/// A value observation shared by several subscribers; see `ValueObservation.shared(in:)`.
public final class SharedValueObservation<Value: Sendable>: @unchecked Sendable {  // mutable state touched on `queue` only
    private let observation: ValueObservation<Value>
    private weak var writer: (any DatabaseWriter)?
    /// Where values and errors are delivered to subscribers, in order.
    private let queue = DispatchQueue(label: "Ripple.SharedValueObservation")

    // Touched on `queue` only.
    private var subscribers: [ObjectIdentifier: Subscriber] = [:]
    private var lastValue: Value?
    private var cancellable: AnyDatabaseCancellable?

    private final class Subscriber: Sendable {
        let onError: @Sendable (any Error) -> Void
        let onChange: @Sendable (Value) -> Void
        let cancellation = Cancellation()
        init(onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Value) -> Void) {
            self.onError = onError
            self.onChange = onChange
        }
    }

    init(observation: ValueObservation<Value>, writer: some DatabaseWriter) {
        self.observation = observation
        self.writer = writer
    }

    /// Subscribes; the observation starts with the first subscriber.
    public func start(
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Value) -> Void) -> AnyDatabaseCancellable
    {
        let subscriber = Subscriber(onError: onError, onChange: onChange)
        let id = ObjectIdentifier(subscriber)
        queue.async { [self] in
            subscribers[id] = subscriber
            if let lastValue {
                subscriber.onChange(lastValue)
            } else if cancellable == nil, let writer {
                cancellable = observation.start(in: writer, scheduling: .async(onQueue: queue), onError: { [weak self] error in
                    self?.fanOut(error: error)
                }, onChange: { [weak self] value in
                    self?.fanOut(value)
                })
            }
        }
        return AnyDatabaseCancellable { [weak self] in
            subscriber.cancellation.cancel()
            guard let self else { return }
            self.queue.async { self.remove(id) }
        }
    }

    /// The values, as an asynchronous sequence.
    public func values() -> AsyncValueObservation<Value> {
        AsyncValueObservation(bufferingPolicy: .unbounded) { onError, onChange in
            self.start(onError: onError, onChange: onChange)
        }
    }

    private func fanOut(_ value: Value) {
        lastValue = value
        for subscriber in subscribers.values where !subscriber.cancellation.isCancelled {
            subscriber.onChange(value)
        }
    }

    private func fanOut(error: any Error) {
        for subscriber in subscribers.values where !subscriber.cancellation.isCancelled {
            subscriber.onError(error)
        }
    }

    private func remove(_ id: ObjectIdentifier) {
        subscribers[id] = nil
        if subscribers.isEmpty {
            // The last subscriber left: stop observing, and forget the last value, which
            // would be stale for the next one.
            cancellable?.cancel()
            cancellable = nil
            lastValue = nil
        }
    }
}
