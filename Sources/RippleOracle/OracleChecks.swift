import CSQLite
import Foundation
import Ripple

extension OracleRun {
    func viewResults(_ db: Database) throws -> [String: [String]] {
        var results: [String: [String]] = [:]
        for view in views {
            let query = "SELECT * FROM \"\(view.name)\""
            results[query] = try Snapshot.query(db.sqliteConnection!, query).rows
                .map { $0.map { $0 ?? "NULL" }.joined(separator: "|") }.sorted()
        }
        for (query, truth) in associationTruths { results[query] = try truth(db) }
        return results
    }

    /// Checks everything observers were told about the unit of work that just ended.
    ///
    /// - parameter committed: whether the transaction committed (a rolled back transaction
    ///   wrote nothing).
    /// - parameter explicit: whether a statement opened the transaction (BEGIN, SAVEPOINT),
    ///   as opposed to a statement run outside of any transaction.
    func endUnit(_ db: Database, tracker: UnitTracker, committed: Bool, explicit: Bool, autocommitFailed: Bool = false) throws {
        report.transactions += 1
        var performed = Writes()
        for layer in tracker.layers { performed.formUnion(layer) }
        let writes = committed ? performed : Writes()
        let after = try snapshot(db)
        if !committed {
            check(after == tracker.before, "a rolled back transaction left changes behind")
        }
        let afterViews = try viewResults(db)
        let viewChanged = { (query: String) in tracker.viewResults[query] != afterViews[query] }

        // (a), (e): region observations, notified on the writer right after the commit.
        for watch in regionWatches where !watch.isRetired {
            let expectation =
                committed
                ? adjusted(
                    watch.spec.expectation(writes: writes, ranDDL: tracker.ranDDL, viewChanged: viewChanged), spec: watch.spec, writes: writes,
                    tracker: tracker)
                : .mustNotNotify
            checkNotifications(watch.count.current - watch.lastCount, expectation, label: watch.spec.label, writes: writes)
            watch.lastCount = watch.count.current
        }

        // (c): value observations. On a database queue, each transaction that touched the
        // region gets its own value, fetched before the writer goes on.
        if writerKind == .queue {
            deliveryQueue.sync {}
            for watch in valueWatches where !watch.isRetired {
                let values = watch.values.current
                let errors = watch.errors.current
                check(errors.isEmpty, "\(watch.spec.label): errors \(errors)")
                let expectation =
                    committed
                    ? adjusted(
                        watch.spec.expectation(writes: writes, ranDDL: tracker.ranDDL, viewChanged: viewChanged), spec: watch.spec, writes: writes,
                        tracker: tracker)
                    : .mustNotNotify
                checkNotifications(values.count - watch.lastCount, expectation, label: watch.spec.label, writes: writes)
                if values.count > watch.lastCount, let last = values.last {
                    let truth = try fetchTruth(db, watch)
                    check(last == truth, "\(watch.spec.label): value \(last) is not the content \(truth)")
                }
                watch.lastCount = values.count
            }
        }

        checkTransactionObservers(
            tracker: tracker, performed: performed, writes: writes, committed: committed, explicit: explicit, autocommitFailed: autocommitFailed)
        state.savepointDepth = 0
        try refreshSchemaModel(db)
    }

    /// Triggers, indexes and columns as they are, after work that may have been rolled back.
    func refreshSchemaModel(_ db: Database) throws {
        let objects = try Snapshot.query(db.sqliteConnection!, "SELECT type, name FROM sqlite_master").rows
        triggers = objects.filter { $0[0] == "trigger" }.compactMap { $0[1] }
        indexes = objects.filter { $0[0] == "index" && !($0[1] ?? "").hasPrefix("sqlite_") }.compactMap { $0[1] }
        for index in tables.indices where !tables[index].isTemp {
            let columns = try Snapshot.query(db.sqliteConnection!, "SELECT name FROM pragma_table_info('\(tables[index].name)')").rows.compactMap {
                $0[0]
            }
            tables[index].addedColumns = columns.filter { $0.hasPrefix("c") }
        }
    }

    /// Observers of some columns are only checked exactly when every statement gave new
    /// values to the columns it assigned: otherwise a write that kept a value may notify.
    ///
    /// A row replaced by REPLACE conflict resolution looks updated in the content, but
    /// SQLite deleted it and inserted a new one: observers of the table's rows may hear of
    /// it as an insertion and a deletion.
    func adjusted(_ expectation: WatchSpec.Expectation, spec: WatchSpec, writes: Writes, tracker: UnitTracker) -> WatchSpec.Expectation {
        if expectation == .mustNotNotify, !writes.isEmpty {
            let keys: Set<String>
            switch spec.target {
            case let .table(key, _, _): keys = [key]
            case let .view(_, tableKeys): keys = tableKeys
            default: keys = []
            }
            if !keys.isDisjoint(with: churnableTables(tracker)) { return .mayNotify }
        }
        guard expectation == .mustNotNotify, case let .table(key, columns?, rowKeys) = spec.target,
            let tableWrites = writes.tables[key]
        else { return expectation }
        if !tracker.isPrecise && !columns.isEmpty { return .mayNotify }
        if tracker.mayReplace && tableWrites.updated.keys.contains(where: { rowKeys?.contains($0) ?? true }) { return .mayNotify }
        // A statement may update a table through several programs (its own SET, a
        // trigger's, a foreign key action's), and row events do not tell which one ran:
        // observers of the columns any of them assigns may be notified of each update, as
        // with a statement that assigns a column its own value.
        if !columns.isEmpty, !tableWrites.updated.isEmpty,
            (tracker.triggersAtStart + triggers).contains(where: {
                updatingTriggers.contains($0.lowercased()) && triggerTargets[$0.lowercased()] == key
            })
        {
            return .mayNotify
        }
        return expectation
    }

    /// Tables whose rows one statement may delete and insert again: a trigger inserts into
    /// them, and the statement, a trigger or a foreign key action may delete from them. The
    /// content, read after each statement, cannot tell a row deleted and inserted again
    /// (with the same values, or the same rowid) from a row left alone or updated, though
    /// SQLite did change it and observers hear of it.
    func churnableTables(_ tracker: UnitTracker) -> Set<String> {
        Set(
            (tracker.triggersAtStart + triggers).compactMap { trigger -> String? in
                let name = trigger.lowercased()
                return insertingTriggers.contains(name) ? triggerTargets[name] : nil
            })
    }

    func checkNotifications(_ count: Int, _ expectation: WatchSpec.Expectation, label: String, writes: Writes) {
        switch expectation {
        case .mustNotify:
            check(count == 1, "\(label): \(count == 0 ? "MISSED a change" : "notified \(count) times") (writes: \(describe(writes)))")
        case .mayNotify:
            check(count <= 1, "\(label): notified \(count) times for one transaction")
        case .mustNotNotify:
            check(count == 0, "\(label): notified of a transaction that did not touch it (writes: \(describe(writes)))")
        }
    }

    func describe(_ writes: Writes) -> String {
        var parts: [String] = []
        for (key, table) in writes.tables.sorted(by: { $0.key < $1.key }) {
            var part = key + ":"
            if !table.inserted.isEmpty { part += " +\(table.inserted.sorted())" }
            if !table.deleted.isEmpty { part += " -\(table.deleted.sorted())" }
            if !table.updated.isEmpty { part += " ~\(table.updated.keys.sorted())" }
            if table.shapeChanged { part += " shape" }
            parts.append(part)
        }
        if writes.schemaChanged { parts.append("schema") }
        return parts.isEmpty ? "none" : parts.joined(separator: "; ")
    }

    func fetchTruth(_ db: Database, _ watch: ValueWatch) throws -> [String] {
        try watch.fetch(db)
    }

    /// Checks the transaction observers: the protocol of their callbacks, and their row
    /// events against the rows each statement really wrote.
    func checkTransactionObservers(tracker: UnitTracker, performed: Writes, writes: Writes, committed: Bool, explicit: Bool, autocommitFailed: Bool) {
        for observer in [allObserver!, tableObserver!, deleteObserver!, stoppingObserver!] {
            for violation in observer.violations { fail(violation) }
            observer.violations.removeAll()
        }
        let log = allObserver.log
        let ends = log.filter { !$0.isChange }
        let describedLog = log.map(\.description).joined(separator: ", ")
        if autocommitFailed && tracker.ranSeveralStatements {
            // A record's save may commit its first statement, then fail in its second.
            check(!log.contains(.didRollback) || log.last == .didRollback, "failed statements: \(describedLog)")
        } else if autocommitFailed {
            // A statement that failed outside of any transaction: nothing committed, and a
            // rollback is told only to observers that heard of a change.
            check(!ends.contains(.didCommit) && !ends.contains(.willCommit), "failed statement: commit callbacks: \(describedLog)")
            let heard = log.contains { if case .willChange = $0 { return true } else { return false } }
            if heard {
                check(log.last == .didRollback, "failed statement: pre-update events without didRollback: \(describedLog)")
            } else {
                check(log.isEmpty, "failed statement: observer told \(describedLog)")
            }
        } else if committed && !explicit && tracker.ranSeveralStatements {
            // Several statements outside of a transaction: several commits.
            let pairs = stride(from: 0, to: ends.count, by: 2).map { Array(ends[$0..<min($0 + 2, ends.count)]) }
            check(
                pairs.allSatisfy { $0 == [.willCommit, .didCommit] } && (writes.isEmpty || log.last == .didCommit),
                "autocommit statements: \(describedLog)")
        } else if committed {
            if explicit || !writes.isEmpty {
                check(ends == [.willCommit, .didCommit] && log.suffix(2) == [.willCommit, .didCommit], "committed transaction: \(describedLog)")
            } else {
                check(ends.isEmpty || ends == [.willCommit, .didCommit], "empty autocommit statement: \(describedLog)")
            }
        } else if explicit {
            check(ends == [.didRollback] && log.last == .didRollback, "rolled back transaction: \(describedLog)")
        }

        // Row events.
        var events: [(kind: DatabaseEvent.Kind, table: String, rowID: Int64)] = []
        var willChanges: [(kind: DatabasePreUpdateEvent.Kind, table: String, initial: Int64?, final: Int64?, statement: Int)] = []
        for callback in log {
            switch callback {
            case let .didChange(kind, table, rowID): events.append((kind, table, rowID))
            case let .willChange(kind, table, initial, final, statement): willChanges.append((kind, table, initial, final, statement))
            default: break
            }
        }
        let tablesByKey = Dictionary(tables.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
        // (b): every written row of a committed transaction is in the events.
        if committed {
            for (key, tableWrites) in writes.tables {
                guard let table = tablesByKey[key], !tableWrites.shapeChanged else { continue }
                let eventRows = Set(events.filter { $0.table.lowercased() == key }.map { String($0.rowID) })
                if table.hasRowID {
                    for row in tableWrites.rowKeys.sorted() {
                        check(eventRows.contains(row), "all-events observer MISSED a change of \(table.name) rowid \(row): \(describedLog)")
                    }
                } else if !tableWrites.rowKeys.isEmpty {
                    check(!eventRows.isEmpty, "all-events observer MISSED the changes of WITHOUT ROWID table \(table.name): \(describedLog)")
                }
            }
        }
        // (e): every event is a row a statement really wrote, with the table spelled as in
        // the schema (except where the content cannot show it: see `churnableTables`).
        let churnable = churnableTables(tracker)
        for event in events {
            guard let table = tablesByKey[event.table.lowercased()] else { continue }
            check(event.table == table.name, "event with table name \(event.table), schema says \(table.name)")
            guard !churnable.contains(table.key) else { continue }
            let rows = performed.tables[table.key]?.rowKeys ?? []
            if table.hasRowID {
                check(
                    rows.contains(String(event.rowID)),
                    "event \(event.kind) \(event.table) rowid \(event.rowID) for a row no statement wrote (writes: \(describe(performed)))")
            } else {
                check(performed.tables[table.key] != nil, "event for WITHOUT ROWID table \(event.table) that no statement wrote")
            }
        }
        for event in willChanges where !tracker.failedStatements.contains(event.statement) {
            guard let table = tablesByKey[event.table.lowercased()], !churnable.contains(table.key) else { continue }
            let rows = performed.tables[table.key]?.rowKeys ?? []
            if table.hasRowID {
                let rowID = event.kind == .insert ? event.final : event.initial
                check(
                    rowID.map { rows.contains(String($0)) } ?? false,
                    "pre-update event \(event.kind) \(event.table) \(rowID ?? -1) for a row no statement wrote (writes: \(describe(performed)))")
            } else {
                check(performed.tables[table.key] != nil, "pre-update event for WITHOUT ROWID table \(event.table) that no statement wrote")
            }
        }

        if !soleTransactionObserver {
            checkPartialObservers(log: log, events: events, ends: ends, willChanges: willChanges)
        }
    }

    /// Checks the observers of some tables, of deletions, and the one that stops after the
    /// first change of each transaction, against the all-events observer.
    private func checkPartialObservers(
        log: [RecordingObserver.Callback], events: [(kind: DatabaseEvent.Kind, table: String, rowID: Int64)],
        ends: [RecordingObserver.Callback],
        willChanges: [(kind: DatabasePreUpdateEvent.Kind, table: String, initial: Int64?, final: Int64?, statement: Int)]
    ) {
        // An observer of some tables hears exactly the events of those tables.
        let accepted = tableObserver.acceptedTables ?? []
        let expectedTableEvents = events.filter { accepted.contains($0.table) }.map { "\($0.kind) \($0.table) \($0.rowID)" }
        let tableEvents = tableObserver.log.compactMap { callback -> String? in
            if case let .didChange(kind, table, rowID) = callback { return "\(kind) \(table) \(rowID)" }
            return nil
        }
        check(tableEvents == expectedTableEvents, "\(tableObserver.label): events \(tableEvents), expected \(expectedTableEvents)")
        check(tableObserver.log.filter { !$0.isChange } == ends, "\(tableObserver.label): transaction callbacks differ")

        // The stopping observer hears the first change of each transaction, and only it.
        var expectedFirsts: [String] = []
        var seenInTransaction = false
        for callback in log {
            switch callback {
            case .didChange where !seenInTransaction:
                expectedFirsts.append(callback.description)
                seenInTransaction = true
            case .didCommit, .didRollback:
                seenInTransaction = false
            default:
                break
            }
        }
        let stoppedChanges = stoppingObserver.log.compactMap { callback -> String? in
            if case .didChange = callback { return callback.description }
            return nil
        }
        check(stoppedChanges == expectedFirsts, "\(stoppingObserver.label): changes \(stoppedChanges), expected \(expectedFirsts)")

        // An observer of deletions hears every deletion, including the rows deleted by
        // REPLACE conflict resolution (not the deletion half of an update that changes a
        // rowid, which is an update).
        let movedRows = Set(
            willChanges.filter { $0.kind == .update && $0.initial != $0.final }.compactMap { event in
                event.initial.map { "\(event.table.lowercased()) \($0)" }
            })
        let allDeletes = events.filter { $0.kind == .delete }.map { "\($0.table.lowercased()) \($0.rowID)" }
        let deletes = deleteObserver.log.compactMap { callback -> String? in
            guard case let .didChange(kind, table, rowID) = callback else { return nil }
            if kind == .delete { return "\(table.lowercased()) \(rowID)" }
            // Without pre-update events, the observer accepts updates too (see set-up).
            return observersWantPreUpdateEvents ? "non-delete \(kind)" : nil
        }
        check(Set(deletes).isSubset(of: Set(allDeletes)), "\(deleteObserver.label): events \(deletes) not among \(allDeletes)")
        for delete in allDeletes where !movedRows.contains(delete) {
            check(deletes.contains(delete), "\(deleteObserver.label) MISSED deletion \(delete): \(deleteObserver.log.map(\.description))")
        }
    }

    /// On a pool, value observations fetch from readers, some time after the commit: once
    /// writes stop, each one's last value must be the content.
    func checkValueObservationsSettle() throws {
        let deadline = Date().addingTimeInterval(20)
        for watch in valueWatches where !watch.isRetired {
            var last: [String]?
            var truth: [String] = []
            repeat {
                deliveryQueue.sync {}
                last = watch.values.current.last
                truth = try writer.writeWithoutTransaction { db in try fetchTruth(db, watch) }
                if last == truth { break }
                usleep(2000)
            } while Date() < deadline
            check(watch.errors.current.isEmpty, "\(watch.spec.label): errors \(watch.errors.current)")
            check(last == truth, "\(watch.spec.label): last value \(last ?? []) is not the content \(truth)")
        }
    }

    // MARK: - Schema changes

    /// A schema change as a transaction of its own, inside a transaction or not.
    func runSchemaChange() throws {
        let inTransaction = rng.chance(0.4)
        var newTable: OracleTable?
        var droppedTable: OracleTable?
        var explicit = inTransaction
        try writer.writeWithoutTransaction { db in
            var tracker = try beginUnit(db)
            if inTransaction {
                unitLog.append("BEGIN")
                try db.execute(sql: "BEGIN")
            }
            switch rng.int(0...10) {
            case 10 where !views.isEmpty:
                // A view redefined on other tables: value observations of it, which record
                // their region on each fetch, follow it.
                let index = rng.int(0...(views.count - 1))
                let old = views[index]
                let table = rng.pick(tables.filter { !$0.isTemp })
                let view = OracleView(
                    name: old.name,
                    createSQL: "CREATE VIEW \"\(old.name)\" AS SELECT a, b FROM \(table.quotedName) WHERE a % 2 = 0",
                    tableKeys: [table.key])
                unitLog.append("DROP VIEW \(old.name); \(view.createSQL)")
                func redefine() throws {
                    try db.execute(sql: "DROP VIEW \"\(old.name)\"")
                    try db.execute(sql: view.createSQL)
                }
                if inTransaction {
                    try redefine()
                } else {
                    try db.inTransaction {
                        try redefine()
                        return .commit
                    }
                    explicit = true
                }
                views[index] = view
                tracker.ranDDL = true
                let query = "SELECT * FROM \"\(old.name)\""
                for watch in regionWatches {
                    if case .view(let watched, _) = watch.spec.target, watched == query { watch.isRetired = true }
                }
                for watch in valueWatches {
                    if case .view(let watched, _) = watch.spec.target, watched == query {
                        watch.spec = WatchSpec(target: .view(query: query, tableKeys: view.tableKeys), label: watch.spec.label, watchesSchema: true)
                    }
                }
            case 0 where !inTransaction:
                // A temporary table, observed once created.
                let table = OracleTable(
                    name: makeName("temp"), shape: rng.pick(OracleTable.Shape.allCases), uniqueness: .plain, parent: nil, isTemp: true)
                unitLog.append(table.createSQL)
                try db.execute(sql: table.createSQL)
                tables.append(table)
                newTable = table
                tracker.ranDDL = true
            case 1 where !inTransaction:
                guard let table = tables.last(where: \.isTemp) else { break }
                // Value observations of the table would fail: stop them first.
                for watch in valueWatches where watch.spec.label.contains(table.name) {
                    watch.cancellable?.cancel()
                    watch.isRetired = true
                }
                unitLog.append("DROP TABLE \(table.quotedName)")
                try db.execute(sql: "DROP TABLE \(table.quotedName)")
                tracker.ranDDL = true
                droppedTable = table
                try checkDropped(db, name: table.name)
            case 2:
                // A virtual table, dropped at once: the drop must drop it.
                let name = makeName("fts")
                unitLog.append("CREATE VIRTUAL TABLE \(name) USING fts5(x); INSERT; DROP TABLE")
                func createAndDrop() throws {
                    try db.execute(sql: "CREATE VIRTUAL TABLE \"\(name)\" USING fts5(x)")
                    try db.execute(sql: "INSERT INTO \"\(name)\"(x) VALUES ('hello world')")
                    try db.execute(sql: "DROP TABLE \"\(name)\"")
                }
                if inTransaction {
                    try createAndDrop()
                } else {
                    try db.inTransaction {
                        try createAndDrop()
                        return .commit
                    }
                    explicit = true
                }
                tracker.ranDDL = true
                try checkDropped(db, name: name)
            default:
                try runSchemaStatement(db, tracker: &tracker)
            }
            try recordWrites(db, tracker: &tracker)
            if inTransaction {
                unitLog.append("COMMIT")
                try db.execute(sql: "COMMIT")
            }
            try endUnit(db, tracker: tracker, committed: true, explicit: explicit)
        }
        if let newTable {
            try startObservations(of: newTable)
            try settleValueObservations()
        }
        if let droppedTable { tables.removeAll { $0.name == droppedTable.name } }
    }

    /// A schema change inside a transaction: triggers, indexes, columns.
    func runSchemaStatement(_ db: Database, tracker: inout UnitTracker) throws {
        tracker.ranDDL = true
        switch rng.int(0...5) {
        case 0, 1:
            guard let trigger = makeTrigger() else { return }
            unitLog.append(trigger.createSQL)
            try db.execute(sql: trigger.createSQL)
            triggers.append(trigger.name)
        case 2:
            guard !triggers.isEmpty else { return }
            let trigger = triggers.remove(at: rng.int(0...(triggers.count - 1)))
            let sql = rng.chance(0.5) ? "DROP TRIGGER IF EXISTS \"\(trigger)\"" : "DROP TRIGGER IF EXISTS \"\(trigger.uppercased())\""
            unitLog.append(sql)
            try db.execute(sql: sql)
            try checkDropped(db, name: trigger)
        case 3:
            let table = rng.pick(tables.filter { !$0.isTemp })
            let name = makeName("idx")
            let sql = "CREATE INDEX \"\(name)\" ON \(table.quotedName)(a)"
            unitLog.append(sql)
            try db.execute(sql: sql)
            indexes.append(name)
        case 4:
            guard !indexes.isEmpty else { return }
            let name = indexes.remove(at: rng.int(0...(indexes.count - 1)))
            unitLog.append("DROP INDEX \(name)")
            try db.execute(sql: "DROP INDEX IF EXISTS \"\(name)\"")
            try checkDropped(db, name: name)
        default:
            guard let index = tables.indices.filter({ !tables[$0].isTemp && tables[$0].addedColumns.count < 2 }).randomElement(using: &rng) else {
                return
            }
            // The model may name a column that a rolled back savepoint removed (it is read
            // again when the unit ends), never miss one: add the first it does not name.
            guard let column = ["c0", "c1"].first(where: { !tables[index].addedColumns.contains($0) }) else { return }
            let sql = "ALTER TABLE \(tables[index].quotedName) ADD COLUMN \(column) INTEGER NOT NULL DEFAULT 7"
            unitLog.append(sql)
            try db.execute(sql: sql)
            tables[index].addedColumns.append(column)
        }
    }

    /// A DROP drops: the object is gone from the schema, with its shadow tables.
    func checkDropped(_ db: Database, name: String) throws {
        let sql = """
            SELECT name FROM sqlite_master WHERE name = '\(name)' COLLATE NOCASE OR name LIKE '\(name)\\_%' ESCAPE '\\'
            UNION ALL SELECT name FROM sqlite_temp_master WHERE name = '\(name)' COLLATE NOCASE
            """
        let remaining = try Snapshot.query(db.sqliteConnection!, sql).rows
        check(remaining.isEmpty, "DROP of \(name) left \(remaining) in the schema")
    }

    /// Another connection changes the schema: Ripple's prepared statements are compiled
    /// again by SQLite, and what they write may change.
    func runExternalSchemaChange() throws {
        guard let otherConnection else { return }
        var sql: String?
        var dropped: String?
        switch rng.int(0...2) {
        case 0:
            if let trigger = makeTrigger() {
                sql = trigger.createSQL
                triggers.append(trigger.name)
            }
        case 1:
            if !triggers.isEmpty {
                let trigger = triggers.remove(at: rng.int(0...(triggers.count - 1)))
                sql = "DROP TRIGGER IF EXISTS \"\(trigger)\""
                dropped = trigger
            }
        default:
            let table = rng.pick(tables.filter { !$0.isTemp })
            let name = makeName("idx")
            sql = "CREATE INDEX \"\(name)\" ON \(table.quotedName)(b)"
            indexes.append(name)
        }
        guard let sql else { return }
        unitLog.append("other connection: \(sql)")
        var error: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(otherConnection, sql, nil, nil, &error)
        if code != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "error \(code)"
            sqlite3_free(error)
            throw OracleError("the other connection failed: \(message): \(sql)")
        }
        if let dropped {
            try writer.writeWithoutTransaction { db in try checkDropped(db, name: dropped) }
        }
    }
}
