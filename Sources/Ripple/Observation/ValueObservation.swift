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
    var throttleInterval: TimeInterval?

    init(regionSpec: RegionSpec, throttleInterval: TimeInterval? = nil, makePipeline: @escaping @Sendable () -> ValuePipeline<Value>) {
        self.regionSpec = regionSpec
        self.throttleInterval = throttleInterval
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
        fetch: @escaping @Sendable (Database) throws -> Value) -> ValueObservation
    {
        ValueObservation(regionSpec: .explicit(region)) { ValuePipeline(fetch: fetch) }
    }

    /// Transforms each value, after fetching.
    public func map<T: Sendable>(_ transform: @escaping @Sendable (Value) throws -> T) -> ValueObservation<T> {
        let makePipeline = self.makePipeline
        return ValueObservation<T>(regionSpec: regionSpec, throttleInterval: throttleInterval) {
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
        return ValueObservation(regionSpec: regionSpec, throttleInterval: throttleInterval) {
            makePipeline().removingDuplicates(by: ==)
        }
    }
}

extension ValueObservation {
    /// Skips values that `isDuplicate` says are the same as the previous one.
    public func removeDuplicates(by isDuplicate: @escaping @Sendable (Value, Value) -> Bool) -> ValueObservation {
        let makePipeline = self.makePipeline
        return ValueObservation(regionSpec: regionSpec, throttleInterval: throttleInterval) {
            makePipeline().removingDuplicates(by: isDuplicate)
        }
    }
}

/// How a value observation knows its region.
enum ValueObservationRegion: Sendable {
    /// Recorded from what the fetch reads, on each fetch (or once, when constant).
    case tracked(constant: Bool)
    /// Given explicitly.
    case explicit([any DatabaseRegionConvertible])
}

/// The fetch and the stateful steps after it, made anew for each start. Used on one queue
/// at a time.
final class ValuePipeline<Value>: @unchecked Sendable {  // used on one queue at a time (the fetch, then the delivery)
    /// Fetches a raw result.
    let fetch: (Database) throws -> Any
    /// Turns a raw result into a value, or nil to skip it.
    let reduce: (Any) throws -> Value?

    init(fetch: @escaping (Database) throws -> Any, reduce: @escaping (Any) throws -> Value?) {
        self.fetch = fetch
        self.reduce = reduce
    }

    convenience init(fetch: @escaping @Sendable (Database) throws -> Value) {
        self.init(fetch: { try fetch($0) }, reduce: { $0 as? Value })
    }

    func map<T>(_ transform: @escaping (Value) throws -> T) -> ValuePipeline<T> {
        let reduce = self.reduce
        return ValuePipeline<T>(fetch: fetch, reduce: { try reduce($0).map(transform) })
    }

    func removingDuplicates(by isDuplicate: @escaping (Value, Value) -> Bool) -> ValuePipeline<Value> {
        let reduce = self.reduce
        var previous: Value?
        return ValuePipeline(fetch: fetch, reduce: { raw in
            guard let value = try reduce(raw) else { return nil }
            if let previous, isDuplicate(previous, value) { return nil }
            previous = value
            return value
        })
    }
}
