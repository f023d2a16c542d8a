/// Changes told to observers without a statement of this connection:
/// `Database.notifyChanges(in:)`, and the commits of other connections or processes.
extension DatabaseObservationBroker {
    /// See `Database.notifyChanges(in:)`. Called inside a transaction.
    func notifyChanges(in region: DatabaseRegion) {
        for entry in registry.purgeDeallocatedObservers() { entry.release() }
        let facts = currentSchemaFacts()
        // The kinds of changes the region stands for, with the tables as the schema spells
        // them; tables that do not exist are left out.
        var kinds: [DatabaseEventKind] = []
        func appendKinds(of table: SchemaFacts.Table, columns watched: Set<String>?) {
            let columns = database.withStatementsHiddenFromTrace { SchemaFacts.columns(of: table, connection: connection) }
            kinds.append(.delete(tableName: table.name))
            kinds.append(.insert(tableName: table.name))
            kinds.append(
                .update(
                    tableName: table.name,
                    columnNames: Set(
                        columns.filter { column in
                            watched.map { $0.contains(column.lowercased()) } ?? true
                        })))
        }
        if let regionTables = region.tables {
            for regionTable in regionTables {  // (sorted by name)
                guard let table = facts?.tables[regionTable.key] else { continue }
                appendKinds(of: table, columns: regionTable.region.columns)
            }
        } else {
            // The whole database is its tables, as in GRDB: not the schema tables (a region
            // names them to tell of schema changes), nor Ripple's own.
            for table in facts?.tables.values.sorted(by: { $0.name < $1.name }) ?? [] {
                let key = table.name.lowercased()
                guard key != "sqlite_master", key != "sqlite_temp_master", !RippleTables.isHidden(key) else { continue }
                appendKinds(of: table, columns: nil)
            }
        }
        tell(region, everyObserver: false, kinds: kinds)
    }

    /// Marks the region observers concerned by `region`, and tells `databaseDidChange()` to
    /// the application's observers that observe one of `kinds` (or to all of them).
    func tell(_ region: DatabaseRegion, everyObserver: Bool, kinds: [DatabaseEventKind]) {
        withoutDatabaseAccess {
            // (Region observers are only marked, in any order; application observers are
            // called back in registration order.)
            for entry in registry.regionEntries where entry.regionObserver!.isConcerned(byChangesIn: region) {
                markImpacted(entry)
            }
            for entry in registry.userEntries {
                guard !entry.isStopped, let observer = entry.observer else { continue }
                if everyObserver || kinds.contains(where: { observer.observes(eventsOfKind: $0) }) {
                    transaction.toldObservers = true
                    observer.databaseDidChange()
                }
            }
        }
    }

    /// Commits of other connections or processes (see `Database.checkExternalChanges()`),
    /// told outside of any transaction of this connection, as one transaction of their own:
    /// `databaseDidChange()` to the transaction observers that observe the region, then
    /// `databaseDidCommit(_:)`; region and value observations of the region are notified.
    /// There is no `databaseWillCommit()`: the commit happened elsewhere, and cannot be
    /// vetoed.
    ///
    /// A change to the whole database reads nothing: the schema is not read again (that
    /// read would take a lock while the other connection may write again), and every
    /// transaction observer that is not stopped hears `databaseDidChange()`. The schema is
    /// forgotten, and read again when needed in one of the application's accesses.
    func notifyExternalCommit(in region: DatabaseRegion) {
        assert(!database.isInsideTransaction, "external commits are told between transactions")
        if region.isFullDatabase {
            for entry in registry.purgeDeallocatedObservers() { entry.release() }
            tell(region, everyObserver: true, kinds: [])
            schema.forget()
        } else {
            notifyChanges(in: region)
        }
        notifyCommit()
    }
}
