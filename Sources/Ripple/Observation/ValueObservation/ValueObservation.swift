import Dispatch
import Foundation

/// Observes the values of a database fetch: notifies a fresh value after each transaction
/// that changed what the fetch reads.
///
/// ```swift
/// let observation = ValueObservation.tracking { db in
///     try Player.order(Column("score").desc).limit(10).fetchAll(db)
/// }
/// let cancellable = observation.start(in: dbQueue) { error in
///     // handle error
/// } onChange: { players in
///     print("Best players: \(players)")
/// }
/// ```
///
/// Guarantees:
/// - values come in the chronological order of transactions, and each one is the state of
///   the database right after some commit; after a burst of commits, the last value
///   delivered is the final state;
/// - the fetch never runs inside the writing transaction: on a ``DatabasePool`` it runs on a
///   reader, from a snapshot opened right after the commit (the writer only waits for the
///   snapshot to open); on a ``DatabaseQueue`` it runs on the queue after the writing access
///   has returned;
/// - no value is delivered after `cancel()` returns (unless one is being delivered on
///   another thread at that very moment).
public struct ValueObservation<Value: Sendable>: Sendable {
    typealias RegionSpec = ValueObservationRegion

    let regionSpec: RegionSpec
    let makePipeline: @Sendable () -> ValuePipeline<Value>
    /// What `throttle(for:)`, `handleEvents(...)` and `requiresWriteAccess` set; kept by
    /// `map` and `removeDuplicates`.
    var options = ValueObservationOptions()

    var throttleInterval: TimeInterval? {
        get { options.throttleInterval }
        set { options.throttleInterval = newValue }
    }

    /// Whether the fetch runs with write access: in a write transaction, on the writer
    /// connection of a ``DatabasePool`` (not on a reader), so that it may write (a temporary
    /// table, a cache). False by default. What the fetch's statements read is observed,
    /// writes included (`INSERT ... SELECT`), less the tables it dropped; the commit of the
    /// fetch's own writes does not fetch again (the value saw them).
    public var requiresWriteAccess: Bool {
        get { options.requiresWriteAccess }
        set { options.requiresWriteAccess = newValue }
    }

    init(
        regionSpec: RegionSpec, options: ValueObservationOptions = ValueObservationOptions(),
        makePipeline: @escaping @Sendable () -> ValuePipeline<Value>
    ) {
        self.regionSpec = regionSpec
        self.options = options
        self.makePipeline = makePipeline
    }

    /// Observes the values of `fetch`. The observed region is what `fetch` reads, recorded
    /// again on each fetch, so that a fetch whose region depends on the data stays right.
    public static func tracking(_ fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation {
        ValueObservation(regionSpec: .tracked(constant: false)) { ValuePipeline(fetch: fetch) }
    }

    /// Observes the values of `fetch`, whose region is recorded once, on the first fetch: a
    /// little cheaper, for fetches that always read the same tables and columns.
    public static func trackingConstantRegion(_ fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation {
        ValueObservation(regionSpec: .tracked(constant: true)) { ValuePipeline(fetch: fetch) }
    }

    /// Observes `regions`, and fetches anything after each impactful transaction, with a
    /// consistent view of the database: the modern form of RxGRDB's change tokens and
    /// `mapFetch`.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking(region: Player.all()) { db in
    ///     (try Player.order(Column("score").desc).limit(10).fetchAll(db), try Player.fetchCount(db))
    /// }
    /// ```
    public static func tracking(
        region: any DatabaseRegionConvertible...,
        fetch: @escaping @Sendable (Database) throws -> Value
    ) -> ValueObservation {
        ValueObservation(regionSpec: .explicit(region)) { ValuePipeline(fetch: fetch) }
    }

    /// Transforms each value, after fetching.
    public func map<T: Sendable>(_ transform: @escaping @Sendable (Value) throws -> T) -> ValueObservation<T> {
        let makePipeline = self.makePipeline
        return ValueObservation<T>(regionSpec: regionSpec, options: options) {
            makePipeline().map(transform)
        }
    }

    /// Waits `interval` seconds after a change before fetching, and fetches once for all the
    /// changes of that interval: for bursty writers that would otherwise keep a core busy
    /// re-fetching. Values are still the state right after some commit, in order, and the last
    /// one is the final state.
    public func throttle(for interval: TimeInterval) -> ValueObservation {
        var observation = self
        observation.throttleInterval = interval
        return observation
    }
}

extension ValueObservation where Value: Equatable {
    /// Skips values equal to the previous one.
    public func removeDuplicates() -> ValueObservation {
        let makePipeline = self.makePipeline
        return ValueObservation(regionSpec: regionSpec, options: options) {
            makePipeline().removingDuplicates(by: ==)
        }
    }
}

extension ValueObservation {
    /// Skips values that `isDuplicate` says are the same as the previous one.
    public func removeDuplicates(by isDuplicate: @escaping @Sendable (Value, Value) -> Bool) -> ValueObservation {
        let makePipeline = self.makePipeline
        return ValueObservation(regionSpec: regionSpec, options: options) {
            makePipeline().removingDuplicates(by: isDuplicate)
        }
    }
}

extension ValueObservation {
    /// Calls the given closures when the observation starts, fetches, tracks a region, is
    /// told of a change, produces a value, fails, or is cancelled: for debugging and
    /// logging. They run on the queues where these things happen (`didReceiveValue` where
    /// the value is produced, before it is scheduled).
    ///
    /// ```swift
    /// let observation = ValueObservation
    ///     .tracking(Player.fetchAll)
    ///     .handleEvents(didReceiveValue: { players in log("\(players.count) players") })
    /// ```
    public func handleEvents(
        willStart: (@Sendable () -> Void)? = nil,
        willFetch: (@Sendable () -> Void)? = nil,
        willTrackRegion: (@Sendable (DatabaseRegion) -> Void)? = nil,
        databaseDidChange: (@Sendable () -> Void)? = nil,
        didReceiveValue: (@Sendable (Value) -> Void)? = nil,
        didFail: (@Sendable (any Error) -> Void)? = nil,
        didCancel: (@Sendable () -> Void)? = nil
    ) -> ValueObservation {
        var options = self.options
        options.events.append(
            ValueObservationEvents(
                willStart: willStart, willFetch: willFetch, willTrackRegion: willTrackRegion,
                databaseDidChange: databaseDidChange, didFail: didFail, didCancel: didCancel))
        let makePipeline = self.makePipeline
        return ValueObservation(regionSpec: regionSpec, options: options) {
            guard let didReceiveValue else { return makePipeline() }
            return makePipeline().map { value in
                didReceiveValue(value)
                return value
            }
        }
    }

    /// Prints the observation's events (`start`, `fetch`, `tracked region: ...`,
    /// `database did change`, `value: ...`, `failure: ...`, `cancel`), each line prefixed
    /// with `prefix` and a colon when it is not empty, to `stream` (standard output by
    /// default).
    public func print(_ prefix: String = "", to stream: (any TextOutputStream & Sendable)? = nil) -> ValueObservation {
        let printer = ValueObservationPrinter(prefix: prefix, stream: stream)
        return handleEvents(
            willStart: { printer.print("start") },
            willFetch: { printer.print("fetch") },
            willTrackRegion: { printer.print("tracked region: \($0)") },
            databaseDidChange: { printer.print("database did change") },
            didReceiveValue: { printer.print("value: \($0)") },
            didFail: { printer.print("failure: \($0)") },
            didCancel: { printer.print("cancel") })
    }
}

/// Writes the lines of `ValueObservation.print(_:to:)`, one at a time.
final class ValueObservationPrinter: Sendable {
    private let prefix: String
    private let stream: LockedState<(any TextOutputStream & Sendable)?>

    init(prefix: String, stream: (any TextOutputStream & Sendable)?) {
        self.prefix = prefix.isEmpty ? "" : "\(prefix): "
        self.stream = LockedState(stream)
    }

    func print(_ message: String) {
        let line = prefix + message
        stream.withLock { stream in
            if stream != nil {
                // (One write a message, without a line feed, as GRDB writes them.)
                stream?.write(line)
            } else {
                Swift.print(line)
            }
        }
    }
}

/// The closures of one `handleEvents(...)` call, but `didReceiveValue` (a step of the
/// pipeline).
struct ValueObservationEvents: Sendable {
    var willStart: (@Sendable () -> Void)?
    var willFetch: (@Sendable () -> Void)?
    var willTrackRegion: (@Sendable (DatabaseRegion) -> Void)?
    var databaseDidChange: (@Sendable () -> Void)?
    var didFail: (@Sendable (any Error) -> Void)?
    var didCancel: (@Sendable () -> Void)?
}

/// The options of a value observation, kept by `map` and `removeDuplicates`.
struct ValueObservationOptions: Sendable {
    var throttleInterval: TimeInterval?
    var requiresWriteAccess = false
    /// From the first `handleEvents(...)` call to the last.
    var events: [ValueObservationEvents] = []

    func notify(_ event: KeyPath<ValueObservationEvents, (@Sendable () -> Void)?>) {
        events.notify(event)
    }

    func notify<Argument>(_ event: KeyPath<ValueObservationEvents, (@Sendable (Argument) -> Void)?>, _ argument: Argument) {
        events.notify(event, argument)
    }
}

extension [ValueObservationEvents] {
    /// Calls the closures of `event`, from the first `handleEvents(...)` call to the last.
    func notify(_ event: KeyPath<ValueObservationEvents, (@Sendable () -> Void)?>) {
        for handlers in self { handlers[keyPath: event]?() }
    }

    func notify<Argument>(_ event: KeyPath<ValueObservationEvents, (@Sendable (Argument) -> Void)?>, _ argument: Argument) {
        for handlers in self { handlers[keyPath: event]?(argument) }
    }
}

/// How a value observation knows its region.
enum ValueObservationRegion: Sendable {
    /// Recorded from what the fetch reads, on each fetch (or once, when constant).
    case tracked(constant: Bool)
    /// Given explicitly.
    case explicit([any DatabaseRegionConvertible])

    /// Whether the region is recorded again on each fetch.
    var recordsRegionOnEachFetch: Bool {
        if case .tracked(constant: false) = self { return true }
        return false
    }
}

/// The fetch and the stateful steps after it, made anew for each start. Used on one queue
/// at a time.
final class ValuePipeline<Value> {
    private enum Steps {
        /// The application's fetch, and nothing after it: kept as it is (wrapping it in a
        /// closure that returns `Any` costs two allocations per observation, W6m).
        case fetch(@Sendable (Database) throws -> Value)
        /// A fetch of a raw result, and the steps that turn it into a value. (In a box of
        /// their own: two closures inline would make every pipeline a word larger, W6m.)
        case steps(StepsBox)
    }

    private final class StepsBox {
        let fetch: (Database) throws -> Any
        let reduce: (Any) throws -> Value?

        init(fetch: @escaping (Database) throws -> Any, reduce: @escaping (Any) throws -> Value?) {
            self.fetch = fetch
            self.reduce = reduce
        }
    }

    private let steps: Steps

    init(fetch: @escaping (Database) throws -> Any, reduce: @escaping (Any) throws -> Value?) {
        steps = .steps(StepsBox(fetch: fetch, reduce: reduce))
    }

    init(fetch: @escaping @Sendable (Database) throws -> Value) {
        steps = .fetch(fetch)
    }

    /// Fetches a raw result.
    func fetch(_ db: Database) throws -> Any {
        switch steps {
        case .fetch(let fetch): return try fetch(db)
        case .steps(let box): return try box.fetch(db)
        }
    }

    /// Turns a raw result into a value, or nil to skip it.
    func reduce(_ raw: Any) throws -> Value? {
        switch steps {
        case .fetch: return raw as? Value
        case .steps(let box): return try box.reduce(raw)
        }
    }

    func map<T>(_ transform: @escaping (Value) throws -> T) -> ValuePipeline<T> {
        ValuePipeline<T>(fetch: fetch, reduce: { [self] in try reduce($0).map(transform) })
    }

    func removingDuplicates(by isDuplicate: @escaping (Value, Value) -> Bool) -> ValuePipeline<Value> {
        var previous: Value?
        return ValuePipeline(
            fetch: fetch,
            reduce: { [self] raw in
                guard let value = try reduce(raw) else { return nil }
                if let previous, isDuplicate(previous, value) { return nil }
                previous = value
                return value
            })
    }
}
