import Foundation
import Hummingbird
import Ripple

/// What one live query fetches, and the region of the database its value depends on.
///
/// ```swift
/// LiveFetch(tracking: Player.all()) { db in
///     try Player.order(Column("score").desc).limit(10).fetchAll(db)
/// }
/// ```
///
/// The region is stated, as with `ValueObservation.tracking(region:fetch:)`: the hub
/// fetches the values of several queries in one snapshot, at a commit sequence it knows,
/// which a `ValueObservation` that schedules its own fetches cannot tell. A commit that
/// does not change the region costs the query nothing. The value is encoded to JSON once
/// per fetch, and the same bytes go to every subscriber.
public struct LiveFetch: Sendable {
    let regions: [any DatabaseRegionConvertible]
    let fetchJSON: @Sendable (Database) throws -> ByteBuffer

    /// Fetches `fetch` again after each commit that changes one of `regions` (requests,
    /// tables or regions).
    public init<Value: Encodable & Sendable>(
        tracking regions: any DatabaseRegionConvertible...,
        fetch: @escaping @Sendable (Database) throws -> Value)
    {
        self.init(tracking: regions, fetch: fetch)
    }

    /// Fetches `fetch` again after each commit that changes one of `regions` (requests,
    /// tables or regions).
    public init<Value: Encodable & Sendable>(
        tracking regions: [any DatabaseRegionConvertible],
        fetch: @escaping @Sendable (Database) throws -> Value)
    {
        self.regions = regions
        self.fetchJSON = { db in
            let value = try fetch(db)
            let encoder = JSONEncoder()
            // Sorted keys: equal values give equal bytes, which tells an unchanged value.
            encoder.outputFormatting = .sortedKeys
            return ByteBuffer(data: try encoder.encode(value))
        }
    }
}
