extension Statement {
    /// The region the statement reads: the tables and columns SQLite reported while it
    /// compiled the statement.
    public var databaseRegion: DatabaseRegion { report.readRegion }
}
