import CSQLite

/// What a connection's statements read, recorded while `db.observation.recordedRegion` is
/// set: a value observation tracks the region its fetch reads.
extension Database {
    /// Runs `block` and returns the region it read, less the tables it dropped (a fetch
    /// that writes may create a temporary table, read it and drop it).
    func recordingReadRegion<T>(_ block: () throws -> T) throws -> (T, DatabaseRegion) {
        let previous = observation.recordedRegion
        let previousChangedTables = observation.recordingSchemaChangedTables
        observation.recordedRegion = DatabaseRegion()
        observation.recordingSchemaChangedTables = []
        defer {
            observation.recordedRegion = previous.map { $0.union(observation.recordedRegion ?? DatabaseRegion()) }
            observation.recordingSchemaChangedTables.formUnion(previousChangedTables)
            observation.preparedStatementRegion = nil
        }
        let result = try block()
        let region = observation.recordedRegion ?? DatabaseRegion()
        let changedTables = observation.recordingSchemaChangedTables
        if !changedTables.isEmpty {
            return (result, region.removingDroppedTables(among: changedTables, self))
        }
        return (result, region)
    }

    /// Runs `body` without recording what it reads: for the schema introspection that
    /// Ripple does for a request (its primary key, its columns), which is not what the
    /// request reads. Cached after the first time, it would be recorded by the first
    /// fetch only; and a change of the schema fetches a `tracking` observation again
    /// anyway (see ``RegionObserver/observesSchemaChanges``).
    func withoutRecordingReads<T>(_ body: () throws -> T) rethrows -> T {
        guard let recorded = observation.recordedRegion else { return try body() }
        let prepared = observation.preparedStatementRegion
        observation.recordedRegion = nil
        observation.preparedStatementRegion = nil
        defer {
            observation.recordedRegion = recorded
            observation.preparedStatementRegion = prepared
        }
        return try body()
    }

    /// Adds to the recorded region, when recording.
    func recordRead(_ region: DatabaseRegion) {
        if observation.recordedRegion != nil { observation.recordedRegion!.formUnion(region) }
    }

    /// Adds what a statement read, as SQLite reported it, to the recorded region: a
    /// statement that writes may read too (`INSERT ... SELECT`, `CREATE TABLE ... AS
    /// SELECT`). The schema a statement that changes it reads is left out: it is its work,
    /// not its result, and an observation whose fetch creates a table would otherwise be
    /// notified by itself.
    @inline(never)
    func recordReportedRead(of statement: Statement) {
        let report = statement.report
        if report.changesSchema {
            observation.recordingSchemaChangedTables.formUnion(report.tablesChangedBySchema)
            recordRead(report.readRegion.removingSchemaTables())
        } else {
            recordRead(report.readRegion)
        }
    }

    /// Whether a table (not a view) of this name exists in some schema, asked of SQLite
    /// without SQL: the application's trace shows no statement it did not run.
    func tableIsReachable(_ name: String) -> Bool {
        sqlite3_table_column_metadata(sqliteConnection, nil, name, nil, nil, nil, nil, nil, nil) == SQLITE_OK
    }

    /// Prepares the recording of what a cursor's statement reads, when recording: the
    /// precise region a request gave for this very statement, or the statement's report,
    /// read after the first step (SQLite may compile the statement again then).
    func prepareReadRecording(of statement: Statement) {
        guard observation.recordedRegion != nil else { return }
        if let prepared = observation.preparedStatementRegion, prepared.statement === statement {
            statement.observation.pendingReadRegion = .precise(prepared.region)
        } else {
            statement.observation.pendingReadRegion = .report
        }
        observation.preparedStatementRegion = nil
    }
}
