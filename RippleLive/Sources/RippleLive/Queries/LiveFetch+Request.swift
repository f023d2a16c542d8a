import Ripple

extension LiveFetch {
    /// The records of `request`, fetched again after each commit that changes the
    /// request's region.
    ///
    /// ```swift
    /// LiveFetch(all: Player.order(Column("score").desc).limit(10))
    /// ```
    public init<Request: FetchRequest>(all request: Request)
    where Request.RowDecoder: FetchableRecord & Encodable & Sendable {
        self.init(tracking: request) { db in try request.fetchAll(db) }
    }
}
