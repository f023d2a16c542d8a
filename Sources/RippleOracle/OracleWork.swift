import CSQLite
import Foundation
import Ripple

/// A generated data statement: SQL with `?` parameters, and its values.
struct GeneratedStatement {
    var sql: String
    var values: [(any DatabaseValueConvertible & Sendable)?]
    /// Whether every column it assigns gets a new value: observers of some columns can then
    /// be checked exactly (an update that writes the same value is a write all the same).
    var isPrecise = true
    /// Whether it may be run through a statement kept from the start of the run.
    var isKept = false

    /// The SQL with values written in place.
    var literalSQL: String {
        var result = ""
        var index = 0
        for character in sql {
            if character == "?", index < values.count {
                switch values[index] {
                case nil: result += "NULL"
                case let string as String: result += "'\(string)'"
                case let value?: result += "\(value)"
                }
                index += 1
            } else {
                result.append(character)
            }
        }
        return result
    }

    var arguments: StatementArguments { StatementArguments(values.map { $0 as (any DatabaseValueConvertible)? }) }
}

/// Where a unit of work stands: the truth before it, and what its statements wrote.
struct UnitTracker {
    /// The content when the unit began.
    var before: Snapshot
    /// The content after the last statement.
    var current: Snapshot
    /// What was written: the transaction, then one layer per open savepoint.
    var layers: [Writes] = [Writes()]
    var ranDDL = false
    var isPrecise = true
    /// Whether a statement may have replaced rows (REPLACE conflict resolution): SQLite
    /// then deletes a row and inserts one, where the content shows an update.
    var mayReplace = false
    /// The triggers when the unit began.
    var triggersAtStart: [String] = []
    /// The results of the views' queries when the unit began.
    var viewResults: [String: [String]] = [:]
    /// Statements that failed (their pre-update events may have been told).
    var failedStatements: Set<Int> = []
    /// Whether an operation ran several statements (a record's `save`): outside of a
    /// transaction, each is a transaction of its own.
    var ranSeveralStatements = false
    /// Whether the last statement has the FAIL conflict resolution: when it fails outside
    /// of a transaction, SQLite commits what it did before the error.
    var lastStatementUsesFail = false
    /// The error of the last statement, if it failed.
    var lastError: DatabaseError?
}

extension OracleRun {
    // MARK: - Units of work

    func runUnit() throws {
        switch rng.int(0...99) {
        case 0..<30: try runTransaction(style: .write)
        case 30..<38: try runTransaction(style: .inTransactionRollback)
        case 38..<43: try runTransaction(style: .writeThatThrows)
        case 43..<53: try runTransaction(style: .rawSQL(commit: rng.chance(0.7)))
        case 53..<63: try runTransaction(style: .savepointOutsideTransaction)
        case 63..<80: try runAutocommitStatements()
        case 80..<88: try runSchemaChange()
        case 88..<93: try runExternalSchemaChange()
        default: try runTransaction(style: .write)
        }
    }

    enum TransactionStyle {
        case write
        case inTransactionRollback
        case writeThatThrows
        case rawSQL(commit: Bool)
        case savepointOutsideTransaction
    }

    struct ThrownByOracle: Error {}

    func runTransaction(style: TransactionStyle) throws {
        var tracker: UnitTracker!
        var committed = false
        let stepCount = rng.int(1...4)
        var explicit = true
        do {
            try writer.writeWithoutTransaction { db in
                tracker = try beginUnit(db)
                switch style {
                case .write:
                    unitLog.append("write {")
                    try db.inTransaction {
                        try runSteps(db, count: stepCount, tracker: &tracker)
                        return .commit
                    }
                    committed = true
                case .inTransactionRollback:
                    unitLog.append("inTransaction { ... return .rollback }")
                    try db.inTransaction {
                        try runSteps(db, count: stepCount, tracker: &tracker)
                        return .rollback
                    }
                case .writeThatThrows:
                    unitLog.append("write { ... throw }")
                    do {
                        try db.inTransaction {
                            try runSteps(db, count: stepCount, tracker: &tracker)
                            throw ThrownByOracle()
                        }
                    } catch is ThrownByOracle {}
                case .rawSQL(let commit):
                    let begin = rng.pick(["BEGIN", "BEGIN IMMEDIATE", "BEGIN DEFERRED TRANSACTION"])
                    unitLog.append(begin)
                    try db.execute(sql: begin)
                    try runSteps(db, count: stepCount, tracker: &tracker)
                    if db.isInsideTransaction {
                        unitLog.append(commit ? "COMMIT" : "ROLLBACK")
                        try db.execute(sql: commit ? "COMMIT" : "ROLLBACK")
                    }
                    committed = commit
                case .savepointOutsideTransaction:
                    // Outside of a transaction, a savepoint opens one.
                    unitLog.append("inSavepoint (outside of a transaction) {")
                    let commit = rng.chance(0.7)
                    try db.inSavepoint {
                        try runSteps(db, count: stepCount, tracker: &tracker)
                        return commit ? .commit : .rollback
                    }
                    committed = commit
                }
                try endUnit(db, tracker: tracker, committed: committed, explicit: explicit)
            }
        } catch let error as OracleError {
            throw error
        } catch {
            // A commit can fail (a deferred foreign key, say): the transaction rolled back.
            explicit = true
            try writer.writeWithoutTransaction { db in
                try endUnit(db, tracker: tracker, committed: false, explicit: explicit)
            }
        }
    }

    /// Statements outside of any transaction: each one is a transaction of its own.
    func runAutocommitStatements() throws {
        try writer.writeWithoutTransaction { db in
            unitLog.append("writeWithoutTransaction {")
            for _ in 0..<rng.int(1...3) {
                var tracker = try beginUnit(db)
                let failed = try runDataStatement(db, tracker: &tracker)
                // With the FAIL conflict resolution, a statement that fails outside of a
                // transaction commits what it did before the error (a foreign key
                // violation undoes it all the same).
                let committed = !failed || (tracker.lastStatementUsesFail && tracker.lastError?.extendedResultCode != .SQLITE_CONSTRAINT_FOREIGNKEY)
                try endUnit(db, tracker: tracker, committed: committed, explicit: false, autocommitFailed: failed && !committed)
                unitLog.append("-- next transaction")
            }
        }
    }

    func beginUnit(_ db: Database) throws -> UnitTracker {
        let snapshot = try self.snapshot(db)
        for watch in regionWatches { watch.lastCount = watch.count.current }
        for watch in valueWatches { watch.lastCount = watch.values.current.count }
        allObserver.log.removeAll()
        tableObserver.log.removeAll()
        deleteObserver.log.removeAll()
        stoppingObserver.log.removeAll()
        var tracker = UnitTracker(before: snapshot, current: snapshot)
        tracker.viewResults = try viewResults(db)
        tracker.triggersAtStart = triggers
        return tracker
    }

    /// Runs `count` random steps: statements, savepoints, schema changes.
    func runSteps(_ db: Database, count: Int, tracker: inout UnitTracker) throws {
        for _ in 0..<count {
            guard db.isInsideTransaction else { return }
            switch rng.int(0...99) {
            case 0..<70:
                _ = try runDataStatement(db, tracker: &tracker)
            case 70..<80:
                try runSavepoint(db, tracker: &tracker, raw: false)
            case 80..<88:
                try runSavepoint(db, tracker: &tracker, raw: true)
            case 88..<95:
                try runSchemaStatement(db, tracker: &tracker)
                try recordWrites(db, tracker: &tracker)
            default:
                _ = try runDataStatement(db, tracker: &tracker)
            }
        }
    }

    func runSavepoint(_ db: Database, tracker: inout UnitTracker, raw: Bool) throws {
        let commit = rng.chance(0.6)
        let steps = rng.int(1...3)
        if raw {
            let name = rng.randomCase("sp\(rng.int(1...3))")
            unitLog.append("SAVEPOINT \(name)")
            try db.execute(sql: "SAVEPOINT \(name)")
            tracker.layers.append(Writes())
            state.savepointDepth += 1
            try runSteps(db, count: steps, tracker: &tracker)
            guard db.isInsideTransaction else { return }
            if commit {
                unitLog.append("RELEASE SAVEPOINT \(name)")
                state.savepointDepth -= 1
                try db.execute(sql: "RELEASE SAVEPOINT \(name)")
                releaseLayer(&tracker)
            } else {
                unitLog.append("ROLLBACK TO SAVEPOINT \(name)")
                try db.execute(sql: "ROLLBACK TO SAVEPOINT \(name)")
                tracker.layers[tracker.layers.count - 1] = Writes()
                tracker.current = try snapshot(db)
                if rng.chance(0.5) {
                    // The savepoint stays open after ROLLBACK TO: more work in it.
                    try runSteps(db, count: 1, tracker: &tracker)
                    guard db.isInsideTransaction else { return }
                }
                unitLog.append("RELEASE SAVEPOINT \(name)")
                state.savepointDepth -= 1
                try db.execute(sql: "RELEASE SAVEPOINT \(name)")
                releaseLayer(&tracker)
            }
        } else {
            unitLog.append("inSavepoint {")
            var localTracker = tracker
            try db.inSavepoint {
                localTracker.layers.append(Writes())
                state.savepointDepth += 1
                try runSteps(db, count: steps, tracker: &localTracker)
                // Before RELEASE: the changes the savepoint held are told as it is released.
                state.savepointDepth -= 1
                unitLog.append(commit ? "} // release" : "} // rollback")
                return commit ? .commit : .rollback
            }
            tracker = localTracker
            if commit {
                releaseLayer(&tracker)
            } else {
                tracker.layers.removeLast()
                tracker.current = try snapshot(db)
            }
        }
    }

    func releaseLayer(_ tracker: inout UnitTracker) {
        let released = tracker.layers.removeLast()
        tracker.layers[tracker.layers.count - 1].formUnion(released)
    }

    /// Runs one statement and records what it wrote. Returns whether it failed.
    @discardableResult
    func runDataStatement(_ db: Database, tracker: inout UnitTracker) throws -> Bool {
        state.statementIndex += 1
        report.statements += 1
        var failed = false
        do {
            try performRandomDataStatement(db, tracker: &tracker)
        } catch let error as DatabaseError {
            failed = true
            tracker.lastError = error
            tracker.failedStatements.insert(state.statementIndex)
            unitLog.append("  -> failed: \(error.resultCode)")
        }
        try recordWrites(db, tracker: &tracker)
        return failed
    }

    func recordWrites(_ db: Database, tracker: inout UnitTracker) throws {
        let after = try snapshot(db)
        tracker.layers[tracker.layers.count - 1].formUnion(Writes(from: tracker.current, to: after))
        tracker.current = after
    }

    // MARK: - Data statements

    func performRandomDataStatement(_ db: Database, tracker: inout UnitTracker) throws {
        let table = rng.pick(tables)
        if table.uniqueness == .replace { tracker.mayReplace = true }
        switch rng.int(0...99) {
        case 0..<30:
            let rows = rng.chance(0.2) ? rng.int(2...3) : 1
            let conflict = rng.pick(["", "", "", "OR REPLACE", "OR IGNORE", "OR FAIL", "REPLACE"])
            try run(db, insertSQL(table, rows: rows, conflict: conflict, failing: rng.chance(0.1)), tracker: &tracker)
        case 30..<36:
            try run(db, upsertSQL(table), tracker: &tracker)
        case 36..<56:
            try run(db, updateSQL(table), tracker: &tracker)
        case 56..<68:
            try run(db, deleteSQL(table), tracker: &tracker)
        case 68..<76:
            guard !table.isTemp, let statement = keptStatements[keptInsertSQL(table)] else { return }
            let values: [(any DatabaseValueConvertible)?] =
                table.shape == .withoutRowID
                ? ["k\(rng.int(0...40))", rng.int(0...20), "kept", rng.version()]
                : [rng.int(0...20), "kept", rng.version()]
            unitLog.append("kept statement: \(statement.sql) \(values.map { "\($0.map { "\($0)" } ?? "nil")" })")
            try statement.execute(arguments: StatementArguments(values))
        case 76..<82:
            guard !table.isTemp, let statement = keptStatements[keptDeleteSQL(table)] else { return }
            let key: any DatabaseValueConvertible = table.shape == .withoutRowID ? "k\(rng.int(0...40))" : rng.int(1...30)
            unitLog.append("kept statement: \(statement.sql) [\(key)]")
            try statement.execute(arguments: [key])
        case 82..<88:
            try runQueryInterfaceStatement(db, table: table, tracker: &tracker)
        case 88..<94:
            try runRecordStatement(db, tracker: &tracker)
        default:
            try runReturningStatement(db, table: table)
        }
    }

    /// Runs a generated statement through a random path.
    func run(_ db: Database, _ statement: GeneratedStatement, tracker: inout UnitTracker) throws {
        if !statement.isPrecise { tracker.isPrecise = false }
        tracker.lastStatementUsesFail = statement.sql.contains("FAIL")
        if statement.sql.contains("REPLACE") { tracker.mayReplace = true }
        switch rng.int(0...4) {
        case 0:
            unitLog.append("execute(sql: \(statement.literalSQL))")
            try db.execute(sql: statement.literalSQL)
        case 1:
            unitLog.append("execute(sql: \(statement.sql), arguments: \(statement.arguments))")
            try db.execute(sql: statement.sql, arguments: statement.arguments)
        case 2:
            unitLog.append("cachedStatement: \(statement.sql) \(statement.arguments)")
            try db.cachedStatement(sql: statement.sql).execute(arguments: statement.arguments)
        case 3:
            unitLog.append("makeStatement: \(statement.sql) \(statement.arguments)")
            try db.makeStatement(sql: statement.sql).execute(arguments: statement.arguments)
        default:
            var literal = SQL(sql: "")
            let parts = statement.sql.split(separator: "?", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() {
                literal.append(SQL(sql: String(part)))
                if index < statement.values.count {
                    literal.append(SQL(sql: "?", arguments: StatementArguments([statement.values[index] as (any DatabaseValueConvertible)?])))
                }
            }
            unitLog.append("execute(literal: \(statement.literalSQL))")
            try db.execute(literal: literal)
        }
    }

    func value(for column: String, of table: OracleTable) -> (any DatabaseValueConvertible & Sendable)? {
        switch column {
        case "k": return "k\(rng.int(0...40))"
        case "a": return rng.chance(0.1) ? nil : rng.int(0...20)
        case "b": return "b\(rng.int(0...99))"
        case "u": return rng.chance(0.4) ? nil : "u\(rng.int(0...8))"
        case "v": return rng.version()
        case "p":
            guard let parent = table.parent, let parentTable = tables.first(where: { $0.name == parent.name }) else { return nil }
            _ = parentTable
            return rng.chance(0.15) ? nil : (rng.chance(0.05) ? 99_999 : rng.int(1...12))
        default: return nil
        }
    }

    func insertSQL(_ table: OracleTable, rows: Int, conflict: String, failing: Bool) -> GeneratedStatement {
        var columns = table.writableColumns
        if table.shape == .withoutRowID { columns.insert("k", at: 0) }
        if table.shape == .integerPrimaryKey, rng.chance(0.3) { columns.insert("id", at: 0) }
        var values: [(any DatabaseValueConvertible & Sendable)?] = []
        // Rows of one statement never conflict with each other: the truth is read after
        // each statement, and a row inserted then replaced by the same statement would
        // not show in it.
        var used: Set<String> = []
        for row in 0..<rows {
            for column in columns {
                var value: (any DatabaseValueConvertible & Sendable)?
                if column == "id" {
                    value = rng.int(1...40)
                } else if column == "b" && failing && row == rows - 1 {
                    value = nil  // NOT NULL violation
                } else {
                    value = self.value(for: column, of: table)
                }
                if ["id", "k", "u"].contains(column), let unique = value {
                    if used.contains("\(column)\(unique)") { value = column == "u" ? nil : "\(column)\(unique)-\(row)" as String }
                    if column == "id", value is String { value = 1000 + rng.int(0...999) + row * 1000 }
                    if let unique = value { used.insert("\(column)\(unique)") }
                }
                values.append(value)
            }
        }
        let placeholders = Array(repeating: "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")", count: rows)
        let verb = conflict == "REPLACE" ? "REPLACE" : "INSERT \(conflict)"
        return GeneratedStatement(
            sql: "\(verb) INTO \(table.quotedName) (\(columns.joined(separator: ", "))) VALUES \(placeholders.joined(separator: ", "))",
            values: values)
    }

    func upsertSQL(_ table: OracleTable) -> GeneratedStatement {
        var statement = insertSQL(table, rows: 1, conflict: "", failing: false)
        statement.sql += " ON CONFLICT(u) DO UPDATE SET a = coalesce(a, 0) + 1, v = excluded.v"
        return statement
    }

    func updateSQL(_ table: OracleTable) -> GeneratedStatement {
        var assignments: [String] = []
        var values: [(any DatabaseValueConvertible & Sendable)?] = []
        switch rng.int(0...5) {
        case 0, 1:
            assignments.append("a = coalesce(a, 0) + ?")
            values.append(rng.int(1...5))
        case 2: assignments.append("b = b || 'x'")
        case 3:
            assignments.append("u = CASE WHEN u IS NULL THEN ? ELSE NULL END")
            values.append("u\(rng.int(0...8))")
        case 4 where table.shape == .integerPrimaryKey: assignments.append("id = id + 100")
        case 4 where table.parent != nil:
            assignments.append("p = CASE WHEN p IS NULL THEN ? ELSE NULL END")
            values.append(rng.int(1...12))
        default:
            assignments.append("a = coalesce(a, 0) + 1")
            assignments.append("b = b || 'y'")
        }
        assignments.append("v = ?")
        values.append(rng.version())
        let conflict = rng.pick(["", "", "", "OR REPLACE", "OR IGNORE"])
        let (condition, conditionValues) = whereClause(table)
        return GeneratedStatement(
            sql: "UPDATE \(conflict) \(table.quotedName) SET \(assignments.joined(separator: ", "))\(condition)",
            values: values + conditionValues)
    }

    func deleteSQL(_ table: OracleTable) -> GeneratedStatement {
        if rng.chance(0.08) {
            return GeneratedStatement(sql: "DELETE FROM \(table.quotedName)", values: [])
        }
        let (condition, values) = whereClause(table)
        return GeneratedStatement(sql: "DELETE FROM \(table.quotedName)\(condition)", values: values)
    }

    func whereClause(_ table: OracleTable) -> (String, [(any DatabaseValueConvertible & Sendable)?]) {
        switch rng.int(0...3) {
        case 0:
            let key: any DatabaseValueConvertible & Sendable = table.shape == .withoutRowID ? "k\(rng.int(0...40))" : rng.int(1...30)
            return (" WHERE \(table.keyExpression) = ?", [key])
        case 1: return (" WHERE a < ?", [rng.int(0...10)])
        case 2: return (" WHERE a % 3 = ?", [rng.int(0...2)])
        default:
            // Two rows picked by the content (SQL's random() would not replay).
            return (
                " WHERE \(table.keyExpression) IN (SELECT \(table.keyExpression) FROM \(table.quotedName) ORDER BY v % \(rng.int(2...13)), \(table.keyExpression) LIMIT 2)",
                []
            )
        }
    }

    func runQueryInterfaceStatement(_ db: Database, table: OracleTable, tracker: inout UnitTracker) throws {
        let threshold = rng.int(0...10)
        switch rng.int(0...2) {
        case 0:
            unitLog.append("Table(\(table.name)).filter(Column(\"a\") < \(threshold)).deleteAll(db)")
            _ = try Table<Row>(table.name).filter(Column("a") < threshold).deleteAll(db)
        case 1 where table.hasRowID:
            let key = Int64(rng.int(1...30))
            unitLog.append("Table(\(table.name)).filter(key: \(key)).deleteAll(db)")
            _ = try Table<Row>(table.name).filter(key: key).deleteAll(db)
        default:
            let a = rng.int(0...20)
            let version = rng.version()
            // Sets `a` to a constant: it may be the value it had.
            tracker.isPrecise = false
            unitLog.append("Table(\(table.name)).filter(Column(\"a\") > \(threshold)).updateAll(db, a = \(a), v = \(version))")
            _ = try Table<Row>(table.name).filter(Column("a") > threshold).updateAll(db, Column("a").set(to: a), Column("v").set(to: version))
        }
    }

    func runRecordStatement(_ db: Database, tracker: inout UnitTracker) throws {
        // Records write every column, changed or not.
        tracker.isPrecise = false
        tracker.mayReplace = true
        tracker.ranSeveralStatements = true
        switch rng.int(0...4) {
        case 0:
            var item = OracleItem(id: nil, a: rng.int(0...20), b: "rec", u: rng.chance(0.5) ? nil : "u\(rng.int(0...8))", v: rng.version())
            unitLog.append("OracleItem.insert \(item)")
            try item.insert(db)
        case 1:
            guard var item = try OracleItem.fetchOne(db, sql: "SELECT * FROM item ORDER BY v % \(rng.int(2...13)), id LIMIT 1") else { return }
            item.a = (item.a ?? 0) + 1
            item.v = rng.version()
            unitLog.append("OracleItem.update \(item)")
            try item.update(db)
        case 2:
            var item = OracleItem(id: Int64(rng.int(1...30)), a: rng.int(0...20), b: "save", u: nil, v: rng.version())
            unitLog.append("OracleItem.save \(item)")
            try item.save(db)
        case 3:
            var item = OracleItem(id: Int64(rng.int(1...30)), a: rng.int(0...20), b: "upsert", u: nil, v: rng.version())
            unitLog.append("OracleItem.upsert \(item)")
            try item.upsert(db)
        default:
            let item = OracleItem(id: Int64(rng.int(1...30)), a: nil, b: "", u: nil, v: 0)
            unitLog.append("OracleItem.delete id \(item.id!)")
            _ = try item.delete(db)
        }
    }

    /// Writes through a cursor: `RETURNING`, read to the end or dropped early.
    func runReturningStatement(_ db: Database, table: OracleTable) throws {
        if rng.chance(0.5) {
            let statement = insertSQL(table, rows: rng.int(1...2), conflict: "OR IGNORE", failing: false)
            unitLog.append("Row.fetchAll: \(statement.literalSQL) RETURNING")
            _ = try Row.fetchAll(db, sql: statement.sql + " RETURNING \(table.keyExpression)", arguments: statement.arguments)
        } else {
            let sql = "DELETE FROM \(table.quotedName) WHERE a < \(rng.int(0...8)) RETURNING \(table.keyExpression)"
            unitLog.append("Row.fetchCursor, dropped after one row: \(sql)")
            let cursor = try Row.fetchCursor(db, sql: sql)
            _ = try cursor.next()
        }
    }
}

/// The record of the "Item" table.
struct OracleItem: Codable, FetchableRecord, MutablePersistableRecord, CustomStringConvertible {
    static let databaseTableName = "item"
    var id: Int64?
    var a: Int?
    var b: String
    var u: String?
    var v: Int64

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var description: String { "id: \(id.map(String.init) ?? "nil"), a: \(a.map(String.init) ?? "nil"), u: \(u ?? "nil")" }
}
