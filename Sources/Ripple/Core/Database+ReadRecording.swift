import CSQLite

/// What a connection's statements read, recorded while `db.observation.recordedRegion` is
/// set: a value observation tracks the region its fetch reads.
extension Database {
    /// Runs `block` and returns the region it read, less the tables it dropped (a fetch
    /// that writes may create a temporary table, read it and drop it).
    func recordingReadRegion<T>(_ block: () throws -> T) throws -> (T, DatabaseRegion) {
        let previous = state.value.observation.recordedRegion
        let previousChangedTables = state.value.observation.recordingSchemaChangedTables
        state.value.observation.recordedRegion = DatabaseRegion()
        state.value.observation.recordingSchemaChangedTables = []
        defer {
            state.value.observation.recordedRegion = previous.map { $0.union(state.value.observation.recordedRegion ?? DatabaseRegion()) }
            state.value.observation.recordingSchemaChangedTables.formUnion(previousChangedTables)
            state.value.observation.preparedStatementRegion = nil
        }
        let result = try block()
        let region = state.value.observation.recordedRegion ?? DatabaseRegion()
        let changedTables = state.value.observation.recordingSchemaChangedTables
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
        guard let recorded = state.value.observation.recordedRegion else { return try body() }
        let prepared = state.value.observation.preparedStatementRegion
        state.value.observation.recordedRegion = nil
        state.value.observation.preparedStatementRegion = nil
        defer {
            state.value.observation.recordedRegion = recorded
            state.value.observation.preparedStatementRegion = prepared
        }
        return try body()
    }

    /// Adds to the recorded region, when recording.
    func recordRead(_ region: DatabaseRegion) {
        if state.value.observation.recordedRegion != nil { state.value.observation.recordedRegion!.formUnion(region) }
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
            state.value.observation.recordingSchemaChangedTables.formUnion(report.tablesChangedBySchema)
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
        guard state.value.observation.recordedRegion != nil else { return }
        if let prepared = state.value.observation.preparedStatementRegion, prepared.statement === statement {
            statement.observation.pendingReadRegion = .precise(prepared.region)
        } else {
            statement.observation.pendingReadRegion = .report
        }
        state.value.observation.preparedStatementRegion = nil
    }
}
