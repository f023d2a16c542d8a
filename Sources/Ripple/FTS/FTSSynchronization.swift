/// The triggers that keep an FTS4 or FTS5 table synchronized with its content table,
/// named as GRDB names them (`"__document_ai"`), so that GRDB's drop methods and ours
/// find each other's triggers.
struct FTSSynchronizationTriggers {
    var tableName: String
    var ifNotExists: Bool

    /// Creates the trigger `__<table>_<suffix>`, one statement per trigger, so that each
    /// traced statement is one trigger:
    ///
    ///     CREATE TRIGGER "__document_ai" AFTER INSERT ON "content" BEGIN
    ///         INSERT INTO ...;
    ///     END
    func create(_ suffix: String, _ event: String, on contentTable: String, body: [String], in db: Database) throws {
        let name = (ifNotExists ? "IF NOT EXISTS " : "") + "__\(tableName)_\(suffix)".quotedDatabaseIdentifier
        let statements = body.map { "    \($0);\n" }.joined()
        try db.execute(sql: "CREATE TRIGGER \(name) \(event) ON \(contentTable.quotedDatabaseIdentifier) BEGIN\n\(statements)END")
    }

    static func dropTriggers(_ suffixes: [String], ofTable tableName: String, in db: Database) throws {
        for suffix in suffixes {
            try db.execute(sql: "DROP TRIGGER IF EXISTS " + "__\(tableName)_\(suffix)".quotedDatabaseIdentifier)
        }
    }
}

extension Database {
    /// The column that aliases the rowid of `table` (`id INTEGER PRIMARY KEY`), or nil
    /// when the rowid is hidden, or not the primary key.
    func visibleRowIDColumn(_ table: String) throws -> String? {
        guard let rowID = try primaryKey(table).rowIDName else { return nil }
        return try columns(in: table).contains { $0.primaryKeyIndex > 0 } ? rowID : nil
    }
}
