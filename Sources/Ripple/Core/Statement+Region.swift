extension Statement {
    /// The region the statement reads: the tables and columns SQLite reported while it
    /// compiled the statement. For the statement of a request, the request's region: with
    /// the tables of the associations it prefetches, and empty for `none()`.
    public var databaseRegion: DatabaseRegion { state.requestRegion ?? report.readRegion }
}
