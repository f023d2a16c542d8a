import Dispatch

/// The observation of a reader that is not a writer (a ``DatabaseSnapshot``): its content
/// never changes, and its one value is delivered as the scheduler says.
enum UnchangingReaderObservation {
    /// What the read uses: taken out by the read, which hands it to `OutOfAccessRelease`
    /// when done, so that the application's closures are not released on the reader's
    /// queue, where a `deinit` that reads the snapshot would wait for the queue itself.
    private struct Closures<Value: Sendable> {
        var pipeline: ValuePipeline<Value>
        var outputs: Outputs<Value>

        func fetch(_ db: Database) throws -> Value? {
            outputs.options.notify(\.willFetch)
            return try pipeline.reduce(pipeline.fetch(db))
        }
    }

    /// What the delivery uses, on the scheduler's queue.
    private struct Outputs<Value: Sendable>: Sendable {
        var options: ValueObservationOptions
        var onError: @Sendable (any Error) -> Void
        var onChange: @Sendable (Value) -> Void

        func fail(_ error: any Error) {
            options.notify(\.didFail, error)
            onError(error)
        }
    }

    static func start<Value: Sendable>(
        _ observation: ValueObservation<Value>,
        in reader: some DatabaseReader,
        scheduler: any ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Value) -> Void
    ) -> AnyDatabaseCancellable {
        let options = observation.options
        let cancellation = Cancellation()
        let closures = Closures(
            pipeline: observation.makePipeline(), outputs: Outputs(options: options, onError: onError, onChange: onChange))
        options.notify(\.willStart)
        if scheduler.immediateInitialValue() {
            if scheduler is ImmediateValueObservationScheduler && !MainActorCheck.isOnMainActor {
                closures.outputs.fail(DatabaseError.misuse(ValueObservationRunner.immediateOffMainActorMessage))
            } else {
                do {
                    if let value = try reader.read(closures.fetch) { onChange(value) }
                } catch {
                    closures.outputs.fail(error)
                }
            }
        } else {
            let held = LockedState<Closures<Value>?>(closures)
            reader.asyncRead { result in
                guard
                    let taken = held.withLock({ held in
                        defer { held = nil }
                        return held
                    })
                else { return }
                let outcome = Result { try taken.fetch(result.get()) }
                // (No other copy of the handlers: the delivery's goes on the scheduler's
                // queue.)
                scheduler.schedule { [outputs = taken.outputs] in
                    guard !cancellation.isCancelled else { return }
                    switch outcome {
                    case .success(let value?): outputs.onChange(value)
                    case .success(nil): break
                    case .failure(let error): outputs.fail(error)
                    }
                }
                OutOfAccessRelease.release(consume taken)
            }
        }
        return AnyDatabaseCancellable {
            if cancellation.cancel() { options.notify(\.didCancel) }
        }
    }
}
