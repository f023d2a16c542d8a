import CSQLite

extension DatabaseWriter {
    /// Rebuilds the database file, packing it into minimal space (`VACUUM`).
    public func vacuum() throws {
        try writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
    }

    /// Writes a packed copy of the database to a new file (`VACUUM INTO`).
    public func vacuum(into filePath: String) throws {
        try writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [filePath]) }
    }

    /// Empties the database: every table, index, view and trigger is gone, and the schema
    /// version and `user_version` are 0. No read of a pool runs meanwhile.
    public func erase() throws {
        try barrierWriteWithoutTransaction { db in
            try db.checkOpen()
            let connection = db.sqliteConnection
            var code = ripple_set_reset_database(connection, 1)
            guard code == SQLITE_OK else { throw DatabaseError(connection: connection, code: code) }
            defer { _ = ripple_set_reset_database(connection, 0) }
            try db.execute(sql: "VACUUM")
            code = ripple_set_reset_database(connection, 0)
            guard code == SQLITE_OK else { throw DatabaseError(connection: connection, code: code) }
            db.clearSchemaCache()
            // With `logsChangedTables`, Ripple's log table is gone too: it comes back.
            db.createCommitLog(evenIfCompiled: true)
        }
    }
}

extension Database {
    /// Forgets what the connection knows of the schema (tables, columns, primary keys):
    /// it is read again when needed. Ripple does it on its own after schema changes made
    /// through the connection.
    public func clearSchemaCache() {
        schemaCache = SchemaCache()
    }
}
