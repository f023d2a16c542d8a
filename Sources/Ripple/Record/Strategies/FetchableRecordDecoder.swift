/// Decodes `Decodable` records from rows, as `init(row:)` does.
///
/// ```swift
/// let row = try Row.fetchOne(db, sql: "SELECT * FROM player WHERE id = 42")!
/// let player = try FetchableRecordDecoder().decode(Player.self, from: row)
/// // the same as:
/// let player = try Player(row: row)
/// ```
///
/// The decoding follows the record type's strategies
/// (``FetchableRecord/databaseColumnDecodingStrategy``,
/// ``FetchableRecord/databaseDateDecodingStrategy(for:)``, and the others).
public final class FetchableRecordDecoder: Sendable {
    /// A decoder of records.
    public init() {}

    /// The record of type `type` that `row` holds.
    public func decode<T: FetchableRecord & Decodable>(_ type: T.Type, from row: Row) throws -> T {
        try T(from: row.recordDecoder(for: T.self))
    }
}
