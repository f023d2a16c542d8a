import Dispatch

extension ValueObservation {
    /// The values of the observation, as an asynchronous sequence. Iterating starts the
    /// observation; ending the iteration, or cancelling its task, stops it. A fetch error ends
    /// the sequence by throwing.
    ///
    /// ```swift
    /// for try await players in observation.values(in: dbQueue) {
    ///     print("Fresh players: \(players)")
    /// }
    /// ```
    public func values(
        in writer: some DatabaseWriter,
        scheduling scheduler: some ValueObservationScheduler = .async(onQueue: DispatchQueue(label: "Ripple.ValueObservation.values")),
        bufferingPolicy: AsyncValueObservation<Value>.BufferingPolicy = .unbounded
    ) -> AsyncValueObservation<Value> {
        AsyncValueObservation(bufferingPolicy: bufferingPolicy) { onError, onChange in
            self.start(in: writer, scheduling: scheduler, onError: onError, onChange: onChange)
        }
    }
}

/// The values of a ``ValueObservation``, as an asynchronous sequence.
public struct AsyncValueObservation<Value: Sendable>: AsyncSequence, Sendable {
    public typealias Element = Value
    public typealias BufferingPolicy = AsyncThrowingStream<Value, any Error>.Continuation.BufferingPolicy

    private let bufferingPolicy: BufferingPolicy
    private let start:
        @Sendable (
            _ onError: @escaping @Sendable (any Error) -> Void,
            _ onChange: @escaping @Sendable (Value) -> Void
        ) -> AnyDatabaseCancellable

    init(
        bufferingPolicy: BufferingPolicy,
        start:
            @escaping @Sendable (
                _ onError: @escaping @Sendable (any Error) -> Void,
                _ onChange: @escaping @Sendable (Value) -> Void
            ) -> AnyDatabaseCancellable
    ) {
        self.bufferingPolicy = bufferingPolicy
        self.start = start
    }

    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream<Value, any Error>.makeStream(bufferingPolicy: bufferingPolicy)
        let cancellable = start(
            { error in continuation.finish(throwing: error) },
            { value in continuation.yield(value) })
        continuation.onTermination = { _ in cancellable.cancel() }
        return Iterator(base: stream.makeAsyncIterator(), cancellable: cancellable)
    }

    /// Iterates the values.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Value, any Error>.AsyncIterator
        let cancellable: AnyDatabaseCancellable

        public mutating func next() async throws -> Value? {
            try await base.next()
        }
    }
}
