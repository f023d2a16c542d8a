import Dispatch
import OpenCombineShim
import Ripple

// RxGRDB's reactive extensions, as Combine publishers.
//
// | RxGRDB | RippleCombine |
// |---|---|
// | `request.rx.changes(in:startImmediately:)` | `request.combine.changes(in:startImmediately:)` |
// | `request.rx.fetchCount(in:startImmediately:scheduler:)` | `request.combine.fetchCount(in:startImmediately:scheduler:)` |
// | `request.rx.fetchOne(in:startImmediately:scheduler:distinctUntilChanged:)` | `request.combine.fetchOne(in:startImmediately:scheduler:distinctUntilChanged:)` |
// | `request.rx.fetchAll(in:startImmediately:scheduler:distinctUntilChanged:)` | `request.combine.fetchAll(in:startImmediately:scheduler:distinctUntilChanged:)` |
// | `dbQueue.rx.changes(in: [requests], startImmediately:)` | `dbQueue.combine.changes(in: [requests], startImmediately:)` |
// | `dbQueue.rx.changeTokens(in:startImmediately:scheduler:).mapFetch { db in ... }` | `dbQueue.combine.changeTokens(in:startImmediately:scheduler:).mapFetch { db in ... }` |
//
// Schedulers are dispatch queues (the main queue by default), the role RxSwift's
// `MainScheduler.instance` plays in RxGRDB.

/// The publishers of a request: `request.combine`.
public struct RequestPublishers<Request: FetchRequest> {
    let request: Request

    /// Emits the connection synchronously on the writer's queue after each impactful
    /// transaction (and, with `startImmediately`, right upon subscription).
    public func changes(in writer: some DatabaseWriter, startImmediately: Bool = true) -> DatabasePublishers.Observation<Database> {
        DatabaseRegionObservation(tracking: request).publisher(in: writer, startImmediately: startImmediately)
    }

    /// Emits the number of rows after each impactful transaction, on `scheduler`.
    public func fetchCount(
        in writer: some DatabaseWriter,
        startImmediately: Bool = true,
        scheduler: DispatchQueue = .main
    ) -> AnyPublisher<Int, any Error> {
        values(request.observationForCount(), in: writer, startImmediately: startImmediately, scheduler: scheduler)
    }
}

func values<Value>(
    _ observation: ValueObservation<Value>,
    in writer: some DatabaseWriter,
    startImmediately: Bool,
    scheduler: DispatchQueue
) -> AnyPublisher<Value, any Error> {
    let publisher = observation.publisher(in: writer, scheduling: .async(onQueue: scheduler))
    return startImmediately ? publisher.eraseToAnyPublisher() : publisher.dropFirst().eraseToAnyPublisher()
}

extension RequestPublishers where Request.RowDecoder: FetchableRecord & Sendable {
    /// Emits the first record after each impactful transaction, on `scheduler`.
    public func fetchOne(
        in writer: some DatabaseWriter, startImmediately: Bool = true,
        scheduler: DispatchQueue = .main, distinctUntilChanged: Bool = false
    ) -> AnyPublisher<Request.RowDecoder?, any Error> {
        values(
            request.observationForFirst(distinctUntilChanged: distinctUntilChanged), in: writer, startImmediately: startImmediately,
            scheduler: scheduler)
    }

    /// Emits all records after each impactful transaction, on `scheduler`.
    public func fetchAll(
        in writer: some DatabaseWriter, startImmediately: Bool = true,
        scheduler: DispatchQueue = .main, distinctUntilChanged: Bool = false
    ) -> AnyPublisher<[Request.RowDecoder], any Error> {
        values(
            request.observationForAll(distinctUntilChanged: distinctUntilChanged), in: writer, startImmediately: startImmediately,
            scheduler: scheduler)
    }
}

extension RequestPublishers where Request.RowDecoder: DatabaseValueConvertible {
    /// Emits the first value after each impactful transaction, on `scheduler`: nil when
    /// there is no row, or when the value is NULL.
    public func fetchOne(
        in writer: some DatabaseWriter, startImmediately: Bool = true,
        scheduler: DispatchQueue = .main, distinctUntilChanged: Bool = false
    ) -> AnyPublisher<Request.RowDecoder?, any Error> {
        values(
            request.observationForFirst(distinctUntilChanged: distinctUntilChanged), in: writer, startImmediately: startImmediately,
            scheduler: scheduler)
    }

    /// Emits the values of the first column after each impactful transaction, on `scheduler`.
    public func fetchAll(
        in writer: some DatabaseWriter, startImmediately: Bool = true,
        scheduler: DispatchQueue = .main, distinctUntilChanged: Bool = false
    ) -> AnyPublisher<[Request.RowDecoder], any Error> {
        values(
            request.observationForAll(distinctUntilChanged: distinctUntilChanged), in: writer, startImmediately: startImmediately,
            scheduler: scheduler)
    }
}

extension RequestPublishers where Request.RowDecoder == Row {
    /// Emits the first row after each impactful transaction, on `scheduler`.
    public func fetchOne(
        in writer: some DatabaseWriter, startImmediately: Bool = true,
        scheduler: DispatchQueue = .main, distinctUntilChanged: Bool = false
    ) -> AnyPublisher<Row?, any Error> {
        values(
            request.observationForFirst(distinctUntilChanged: distinctUntilChanged), in: writer, startImmediately: startImmediately,
            scheduler: scheduler)
    }

    /// Emits all rows after each impactful transaction, on `scheduler`.
    public func fetchAll(
        in writer: some DatabaseWriter, startImmediately: Bool = true,
        scheduler: DispatchQueue = .main, distinctUntilChanged: Bool = false
    ) -> AnyPublisher<[Row], any Error> {
        values(
            request.observationForAll(distinctUntilChanged: distinctUntilChanged), in: writer, startImmediately: startImmediately,
            scheduler: scheduler)
    }
}

extension FetchRequest {
    /// The publishers of the request, after RxGRDB's `request.rx`.
    public var combine: RequestPublishers<Self> { RequestPublishers(request: self) }
}

/// The publishers of a database writer: `dbQueue.combine`.
public struct WriterPublishers<Writer: DatabaseWriter> {
    let writer: Writer

    /// Emits the connection synchronously on the writer's queue after each transaction that
    /// impacts any of the requests (once per transaction, whatever the number of requests).
    public func changes(in requests: [any DatabaseRegionConvertible], startImmediately: Bool = true) -> DatabasePublishers.Observation<Database> {
        DatabaseRegionObservation(tracking: requests).publisher(in: writer, startImmediately: startImmediately)
    }

    /// Change tokens for the requests: turn them into values with `mapFetch`.
    public func changeTokens(in requests: [any DatabaseRegionConvertible], startImmediately: Bool = true, scheduler: DispatchQueue = .main)
        -> ChangeTokens<Writer>
    {
        ChangeTokens(writer: writer, regions: requests, startImmediately: startImmediately, scheduler: scheduler)
    }
}

/// The change tokens of some requests: an observation waiting for its fetch.
public struct ChangeTokens<Writer: DatabaseWriter> {
    let writer: Writer
    let regions: [any DatabaseRegionConvertible]
    let startImmediately: Bool
    let scheduler: DispatchQueue

    /// Emits the result of `fetch` after each transaction that impacts the requests, on the
    /// scheduler. `fetch` runs with an immutable view of the last committed state, so that
    /// several fetches are consistent with each other.
    public func mapFetch<Value: Sendable>(_ fetch: @escaping @Sendable (Database) throws -> Value) -> AnyPublisher<Value, any Error> {
        let observation = ValueObservation<Value>.tracking(region: DatabaseRegionList(regions: regions), fetch: fetch)
        return values(observation, in: writer, startImmediately: startImmediately, scheduler: scheduler)
    }
}

/// Several regions as one.
struct DatabaseRegionList: DatabaseRegionConvertible {
    let regions: [any DatabaseRegionConvertible]
    func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        try regions.reduce(into: DatabaseRegion()) { try $0.formUnion($1.databaseRegion(db)) }
    }
}

extension DatabaseWriter {
    /// The publishers of the writer, after RxGRDB's `dbQueue.rx`.
    public var combine: WriterPublishers<Self> { WriterPublishers(writer: self) }
}
