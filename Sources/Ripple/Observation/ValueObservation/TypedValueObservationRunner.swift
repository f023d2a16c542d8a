/// The part of a started value observation that depends on the type of its values: the
/// pipeline that fetches them, and the change handler (see ``ValueObservationRunner``).
// Unchecked Sendable: `pipeline` and `onChange` are only read and written inside
// `state.withLock`; the rest is the base class's.
final class TypedValueObservationRunner<Value: Sendable>: ValueObservationRunner, @unchecked Sendable {
    /// The application's closures (its fetch, its change handler): let go once cancelled,
    /// so that one that keeps the cancellable makes no cycle then.
    private var pipeline: ValuePipeline<Value>?
    private var onChange: (@Sendable (Value) -> Void)?

    init(
        writer: some DatabaseWriter,
        observation: ValueObservation<Value>,
        scheduler: any ValueObservationScheduler,
        onError: @escaping @Sendable (any Error) -> Void,
        onChange: @escaping @Sendable (Value) -> Void
    ) {
        self.pipeline = observation.makePipeline()
        self.onChange = onChange
        super.init(
            writer: writer, requiresWriteAccess: observation.requiresWriteAccess,
            throttleInterval: observation.throttleInterval, regionSpec: observation.regionSpec,
            events: observation.options.events, scheduler: scheduler, onError: onError)
    }

    override func fetchRaw(_ db: Database) throws -> Any? {
        guard let pipeline = state.withLock({ $0.isCancelled ? nil : pipeline }) else { return nil }
        return try pipeline.fetch(db)
    }

    override func delivery(of raw: Any) throws -> (@Sendable () -> Void)? {
        // (An observation runs one fetch at a time, which reduces before the next starts:
        // the pipeline sees the fetches in their order.)
        // (Read into variables, not returned as a tuple: a tuple of generic types is one
        // more metadata lookup, and an optional one another.)
        var pipeline: ValuePipeline<Value>?
        var onChange: (@Sendable (Value) -> Void)?
        state.withLock { state in
            // (Once cancelled, the closures wait for the work under way to end, and are not
            // used.)
            guard !state.isCancelled else { return }
            pipeline = self.pipeline
            onChange = self.onChange
        }
        guard let pipeline, let value = try pipeline.reduce(raw) else { return nil }
        return { [onChange] in onChange?(value) }
    }

    override func letTypedOutputsGo() -> Any {
        defer {
            pipeline = nil
            onChange = nil
        }
        return (pipeline, onChange)
    }
}
