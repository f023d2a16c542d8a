import Foundation
import Ripple

extension OracleRun {
    /// Makes the random schema, its first rows, and the observers.
    func setUp() throws {
        // Tables: "Item" always (records use it), then random ones; parents come first.
        tables.append(OracleTable(name: "Item", shape: .integerPrimaryKey, uniqueness: .plain, parent: nil, isTemp: false))
        let count = rng.int(3...5)
        for _ in 0..<count {
            let shape = rng.pick(OracleTable.Shape.allCases)
            let parents = tables.filter { $0.shape == .integerPrimaryKey && !$0.isTemp }
            let parent: (String, String)? =
                shape != .withoutRowID && rng.chance(0.5)
                ? (rng.pick(parents).name, rng.pick(["CASCADE", "SET NULL"]))
                : nil
            tables.append(
                OracleTable(
                    name: makeName("tab"), shape: shape,
                    uniqueness: rng.chance(0.4) ? .replace : .plain,
                    parent: parent, isTemp: false))
        }
        try writer.write { db in
            for table in tables { try db.execute(sql: table.createSQL) }
            for _ in 0..<rng.int(1...2) {
                if let view = makeView() {
                    try db.execute(sql: view.createSQL)
                    views.append(view)
                }
            }
            for _ in 0..<rng.int(0...2) {
                if let trigger = makeTrigger() {
                    try db.execute(sql: trigger.createSQL)
                    triggers.append(trigger.name)
                }
            }
            for table in tables {
                for _ in 0..<rng.int(3...8) {
                    _ = try? db.execute(sql: insertSQL(table, rows: 1, conflict: "OR IGNORE", failing: false).sql)
                }
            }
        }
        // Observers.
        // Observers that want pre-update events, or none that does: Ripple then hears
        // the rows of statements that only insert through SQLite's update hook.
        observersWantPreUpdateEvents = rng.int(0...1) == 1
        let wants = observersWantPreUpdateEvents
        allObserver = RecordingObserver.make(label: "all-events observer", acceptedTables: nil, oracleState: state, wantsPreUpdateEvents: wants)
        let chosen = Set((0..<rng.int(1...2)).map { _ in rng.pick(tables).name })
        tableObserver = RecordingObserver.make(
            label: "observer of \(chosen.sorted())", acceptedTables: chosen, oracleState: state, wantsPreUpdateEvents: wants)
        // Without pre-update events, the deletions that are half of an update which moves
        // a row can not be told apart: the deletion observer then accepts updates too, and
        // hears them all.
        deleteObserver = RecordingObserver.make(label: "deletion observer", acceptedTables: nil, oracleState: state, wantsPreUpdateEvents: wants) {
            kind in
            switch kind {
            case .delete: return true
            case .update: return !wants
            case .insert: return false
            }
        }
        allObserver.register(with: writer)
        // In a third of the runs (chosen from the seed, so that the random sequence stays
        // the same), the all-events observer is the only transaction observer: Ripple then
        // tells events through the reference it holds from the statement's start.
        if !soleTransactionObserver {
            tableObserver.register(with: writer)
            deleteObserver.register(with: writer)
        }
        stoppingObserver = RecordingObserver.make(
            label: "observer that stops after one change", acceptedTables: nil, oracleState: state, wantsPreUpdateEvents: wants)
        stoppingObserver.stopsAfterFirstChange = true
        if !soleTransactionObserver { stoppingObserver.register(with: writer) }
        for table in tables { try startObservations(of: table) }
        if observations == .many {
            for table in tables { try startManyObservations(of: table) }
        }
        for view in views { try startObservations(of: view) }
        for table in tables { try startAssociationObservations(of: table) }
        try startRegionWatch(WatchSpec(target: .fullDatabase, label: "region of the full database"), tracking: [DatabaseRegion.fullDatabase])
        try startRegionWatch(WatchSpec(target: .schema, label: "region of sqlite_master"), tracking: [Table<Row>("sqlite_master")])
        try prepareKeptStatements()
        try settleValueObservations()
    }

    /// Region and value observations of a table.
    func startObservations(of table: OracleTable) throws {
        let name = table.name
        let key = table.key
        try startRegionWatch(
            WatchSpec(target: .table(key: key, columns: nil, rowKeys: nil), label: "region Table(\(name))"),
            tracking: [Table<Row>(name)])
        try startRegionWatch(
            WatchSpec(target: .table(key: key, columns: ["a"], rowKeys: nil), label: "region SELECT a FROM \(name)"),
            tracking: [SQLRequest<Row>(sql: "SELECT a FROM \(table.quotedName)")])
        try startRegionWatch(
            WatchSpec(target: .table(key: key, columns: [], rowKeys: nil), label: "region SELECT COUNT(*) FROM \(name)"),
            tracking: [SQLRequest<Row>(sql: "SELECT COUNT(*) FROM \(table.quotedName)")])
        if table.hasRowID {
            let rowID = Int64(rng.int(1...12))
            try startRegionWatch(
                WatchSpec(target: .table(key: key, columns: nil, rowKeys: ["\(rowID)"]), label: "region Table(\(name)).filter(key: \(rowID))"),
                tracking: [Table<Row>(name).filter(key: rowID)])
        }
        // A pool's readers do not see the writer's temporary tables.
        if !table.isTemp || (writerKind == .queue && rng.chance(0.5)) {
            try startValueWatch(
                WatchSpec(target: .table(key: key, columns: nil, rowKeys: nil), label: "value SELECT * FROM \(name)"),
                sql: "SELECT * FROM \(table.quotedName) ORDER BY \(table.keyExpression)",
                constantRegion: false)
            try startValueWatch(
                WatchSpec(target: .table(key: key, columns: ["a"], rowKeys: nil), label: "value SELECT a FROM \(name) (constant region)"),
                sql: "SELECT a FROM \(table.quotedName) ORDER BY a",
                constantRegion: true)
            if table.hasRowID {
                let rowID = rng.int(1...12)
                try startValueWatch(
                    WatchSpec(target: .table(key: key, columns: nil, rowKeys: ["\(rowID)"]), label: "value \(name).filter(key: \(rowID))"),
                    request: Table<Row>(name).filter(key: Int64(rowID)))
            }
        }
    }

    /// Hundreds of observations (see ``OracleObservations/many``): of each column, of rows,
    /// and of one column of a row.
    func startManyObservations(of table: OracleTable) throws {
        let name = table.name
        let key = table.key
        let columns = ["a", "b", "u", "v"]
        for column in columns {
            try startRegionWatch(
                WatchSpec(target: .table(key: key, columns: [column], rowKeys: nil), label: "region SELECT \(column) FROM \(name)"),
                tracking: [SQLRequest<Row>(sql: "SELECT \(column) FROM \(table.quotedName)")])
        }
        guard table.hasRowID else { return }
        for rowID in 1...30 {
            try startRegionWatch(
                WatchSpec(target: .table(key: key, columns: nil, rowKeys: ["\(rowID)"]), label: "region \(name).filter(key: \(rowID))"),
                tracking: [Table<Row>(name).filter(key: Int64(rowID))])
            let column = rng.pick(columns)
            try startRegionWatch(
                WatchSpec(
                    target: .table(key: key, columns: [column], rowKeys: ["\(rowID)"]),
                    label: "region \(name).select(\(column)).filter(key: \(rowID))"),
                tracking: [Table<Row>(name).select(Column(column)).filter(key: Int64(rowID))])
        }
        // A pool's readers do not see the writer's temporary tables.
        guard !table.isTemp || writerKind == .queue else { return }
        for rowID in 1...10 {
            try startValueWatch(
                WatchSpec(target: .table(key: key, columns: nil, rowKeys: ["\(rowID)"]), label: "value \(name).filter(key: \(rowID)) (many)"),
                request: Table<Row>(name).filter(key: Int64(rowID)))
        }
        for rowID in 1...5 {
            let column = rng.pick(columns)
            try startValueWatch(
                WatchSpec(
                    target: .table(key: key, columns: [column], rowKeys: ["\(rowID)"]), label: "value \(name).select(\(column)).filter(key: \(rowID))"
                ),
                request: Table<Row>(name).select(Column(column)).filter(key: Int64(rowID)))
        }
    }

    func startObservations(of view: OracleView) throws {
        let query = "SELECT * FROM \"\(view.name)\""
        try startRegionWatch(
            WatchSpec(target: .view(query: query, tableKeys: view.tableKeys), label: "region \(query)"),
            tracking: [SQLRequest<Row>(sql: query)])
        try startValueWatch(
            WatchSpec(target: .view(query: query, tableKeys: view.tableKeys), label: "value \(query)"),
            sql: query + " ORDER BY 1, 2", constantRegion: false)
    }

    func startRegionWatch(_ spec: WatchSpec, tracking regions: [any DatabaseRegionConvertible]) throws {
        let watch = RegionWatch(spec: spec)
        let observation = DatabaseRegionObservation(tracking: regions)
        // The region is computed during `start`, which reports an error synchronously.
        let startError = LockedState<(any Error)?>(nil)
        watch.cancellable = observation.start(
            in: writer, onError: { error in startError.withLock { $0 = error } }, onChange: { [count = watch.count] _ in count.withLock { $0 += 1 } })
        if let error = startError.current { throw OracleError("region observation \(spec.label) did not start: \(error)") }
        regionWatches.append(watch)
    }

    func startValueWatch(_ spec: WatchSpec, sql: String, constantRegion: Bool) throws {
        var spec = spec
        spec.watchesSchema = !constantRegion
        // Rows as Ripple reads them; the truth reads the same SQL with the raw C API.
        let fetch: @Sendable (Database) throws -> [String] = { db in
            try Row.fetchAll(db, sql: sql).map(canonical)
        }
        let watch = ValueWatch(spec: spec) { db in
            try Snapshot.query(db.sqliteConnection!, sql).canonicalRows
        }
        let observation = constantRegion ? ValueObservation.trackingConstantRegion(fetch) : ValueObservation.tracking(fetch)
        startRecording(watch, observation)
    }

    func startValueWatch(_ spec: WatchSpec, request: QueryInterfaceRequest<Row>) throws {
        let truthSQL = try writer.read { db in
            let prepared = try request.makePreparedRequest(db, forSingleResult: true)
            return GeneratedStatement(sql: prepared.statement.sql, values: prepared.arguments.values.map { $0.storageValueForOracle }).literalSQL
        }
        let watch = ValueWatch(spec: spec) { db in
            Array(try Snapshot.query(db.sqliteConnection!, truthSQL).canonicalRows.prefix(1))
        }
        let observation = request.observationForFirst().map { row in row.map { [canonical($0)] } ?? [] }
        startRecording(watch, observation)
    }

    /// Starts a value watch's observation, which records its values and errors.
    private func startRecording(_ watch: ValueWatch, _ observation: ValueObservation<[String]>) {
        watch.cancellable = observation.start(
            in: writer, scheduling: .async(onQueue: deliveryQueue),
            onError: { [errors = watch.errors] error in
                errors.withLock { $0.append("\(error)") }
            },
            onChange: { [values = watch.values] value in
                values.withLock { $0.append(value) }
            })
        valueWatches.append(watch)
    }

    /// Waits until every value observation delivered its first value.
    func settleValueObservations() throws {
        let deadline = Date().addingTimeInterval(10)
        while valueWatches.contains(where: { $0.values.current.isEmpty && $0.errors.current.isEmpty }) {
            if Date() > deadline { throw OracleError("value observations did not deliver their first value") }
            usleep(1000)
        }
        deliveryQueue.sync {}
    }

    /// Statements prepared now and kept for the whole run.
    func prepareKeptStatements() throws {
        try writer.writeWithoutTransaction { db in
            for table in tables where !table.isTemp {
                let insert = keptInsertSQL(table)
                keptStatements[insert] = try db.makeStatement(sql: insert)
                let delete = keptDeleteSQL(table)
                keptStatements[delete] = try db.makeStatement(sql: delete)
            }
        }
    }

    func keptInsertSQL(_ table: OracleTable) -> String {
        table.shape == .withoutRowID
            ? "INSERT OR IGNORE INTO \(table.quotedName) (k, a, b, v) VALUES (?, ?, ?, ?)"
            : "INSERT INTO \(table.quotedName) (a, b, v) VALUES (?, ?, ?)"
    }

    func keptDeleteSQL(_ table: OracleTable) -> String {
        "DELETE FROM \(table.quotedName) WHERE \(table.keyExpression) = ?"
    }

    // MARK: - Schema objects

    /// A trigger from one table to a table created after it, or nil when there is none.
    func makeTrigger() -> OracleTrigger? {
        let mainTables = tables.filter { !$0.isTemp }
        guard mainTables.count >= 2 else { return nil }
        let sourceIndex = rng.int(0...(mainTables.count - 2))
        let source = mainTables[sourceIndex]
        let target = mainTables[rng.int((sourceIndex + 1)...(mainTables.count - 1))]
        // One trigger at most writes a table: two could insert and delete the same row
        // in one statement, which the truth, read after each statement, would not show.
        let targeted = Set(triggers.compactMap { triggerTargets[$0.lowercased()] })
        guard !targeted.contains(target.key) else { return nil }
        let name = makeName("trig")
        let event = rng.pick(["INSERT", "UPDATE OF a", "DELETE"])
        let row = event == "DELETE" ? "OLD" : "NEW"
        let when = rng.chance(0.4) ? " WHEN \(row).a % 2 = 0" : ""
        let action: String
        switch rng.int(0...2) {
        case 0:
            if target.shape == .withoutRowID {
                action =
                    "INSERT OR IGNORE INTO \(target.quotedName) (k, a, b, v) VALUES ('t' || (abs(coalesce(\(row).a, 0)) % 40), \(row).a, 'trig', \(row).v % 1000003)"
            } else {
                action = "INSERT INTO \(target.quotedName) (a, b, v) VALUES (\(row).a, 'trig', \(row).v % 1000003)"
            }
        case 1:
            action =
                "UPDATE \(target.quotedName) SET a = coalesce(a, 0) + 1, v = v + 1 WHERE \(target.keyExpression) IN (SELECT \(target.keyExpression) FROM \(target.quotedName) ORDER BY \(target.keyExpression) LIMIT 1)"
        default:
            action =
                "DELETE FROM \(target.quotedName) WHERE \(target.keyExpression) IN (SELECT \(target.keyExpression) FROM \(target.quotedName) ORDER BY \(target.keyExpression) LIMIT 1)"
        }
        let sql = "CREATE TRIGGER \"\(name)\" AFTER \(event) ON \(source.quotedName)\(when) BEGIN \(action); END"
        triggerTargets[name.lowercased()] = target.key
        if action.hasPrefix("UPDATE") { updatingTriggers.insert(name.lowercased()) }
        if action.hasPrefix("INSERT") { insertingTriggers.insert(name.lowercased()) }
        return OracleTrigger(name: name, createSQL: sql, table: source.name)
    }

    func makeView() -> OracleView? {
        let mainTables = tables.filter { !$0.isTemp }
        let name = makeName("view")
        if rng.chance(0.5), let child = mainTables.first(where: { $0.parent != nil }),
            let parent = mainTables.first(where: { $0.name == child.parent!.name })
        {
            let sql = "CREATE VIEW \"\(name)\" AS SELECT c.a AS ca, p.b AS pb FROM \(child.quotedName) c JOIN \(parent.quotedName) p ON c.p = p.id"
            return OracleView(name: name, createSQL: sql, tableKeys: [child.key, parent.key])
        }
        let table = rng.pick(mainTables)
        let sql = "CREATE VIEW \"\(name)\" AS SELECT a, b FROM \(table.quotedName) WHERE a % 3 = 0"
        return OracleView(name: name, createSQL: sql, tableKeys: [table.key])
    }
}

/// A row as text: `column=value|...`, values as SQLite gives them as text.
func canonical(_ row: Row) -> String {
    zip(row.columnNames, row.databaseValues).map { column, value in
        "\(column)=" + (value.textForOracle ?? "NULL")
    }.joined(separator: "|")
}

extension Snapshot {
    static func canonical(columns: [String], row: [String?]) -> String {
        zip(columns, row).map { "\($0)=" + ($1 ?? "NULL") }.joined(separator: "|")
    }
}

extension DatabaseValue {
    /// The value as `sqlite3_column_text` gives it (integers and text only, in the oracle).
    var textForOracle: String? {
        switch storage {
        case .null: return nil
        case .int64(let int): return String(int)
        case .double(let double): return String(double)
        case .string(let string): return string
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        }
    }

    var storageValueForOracle: (any DatabaseValueConvertible & Sendable)? {
        switch storage {
        case .null: return nil
        case .int64(let int): return int
        case .double(let double): return double
        case .string(let string): return string
        case .blob(let data): return data
        }
    }
}
