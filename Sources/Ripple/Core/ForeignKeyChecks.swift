extension Database {
    /// Throws a ``DatabaseError`` (`SQLITE_CONSTRAINT_FOREIGNKEY`) that describes the first
    /// foreign key violation of the database, if there is one.
    ///
    /// ```swift
    /// // SQLite error 787: FOREIGN KEY constraint violation - from book(authorId) to author(id),
    /// // in [id:1 authorId:2]
    /// try db.checkForeignKeys()
    /// ```
    public func checkForeignKeys() throws {
        if let violation = try foreignKeyViolations().next() { throw violation.databaseError(self) }
    }

    /// Throws a ``DatabaseError`` (`SQLITE_CONSTRAINT_FOREIGNKEY`) that describes the first
    /// foreign key violation of a table, if there is one.
    public func checkForeignKeys(in tableName: String, in schemaName: String? = nil) throws {
        if let violation = try foreignKeyViolations(in: tableName, in: schemaName).next() { throw violation.databaseError(self) }
    }

    /// The foreign key violations of the database (`PRAGMA foreign_key_check`).
    public func foreignKeyViolations() throws -> RecordCursor<ForeignKeyViolation> {
        try ForeignKeyViolation.fetchCursor(self, sql: "PRAGMA foreign_key_check")
    }

    /// The foreign key violations of a table. Throws when there is no such table, or no
    /// such schema.
    public func foreignKeyViolations(in tableName: String, in schemaName: String? = nil) throws -> RecordCursor<ForeignKeyViolation> {
        let schema = try schemaPrefix(schemaName)
        return try ForeignKeyViolation.fetchCursor(self, sql: "PRAGMA \(schema)foreign_key_check(\(tableName.quotedDatabaseIdentifier))")
    }
}

/// A row whose foreign key refers to no row (`PRAGMA foreign_key_check`).
public struct ForeignKeyViolation: Sendable, FetchableRecord, CustomStringConvertible {
    /// The table of the row.
    public var originTable: String
    /// The rowid of the row (nil in a WITHOUT ROWID table).
    public var originRowID: Int64?
    /// The table the foreign key refers to.
    public var destinationTable: String
    /// SQLite's identifier of the foreign key in its table.
    public var foreignKeyId: Int

    public init(row: Row) throws {
        originTable = try row.decode(atIndex: 0)
        originRowID = try row.decodeIfPresent(Int64.self, atIndex: 1)
        destinationTable = try row.decode(atIndex: 2)
        foreignKeyId = try row.decode(atIndex: 3)
    }

    /// `FOREIGN KEY constraint violation - from book to author, in rowid 1`.
    public var description: String {
        "FOREIGN KEY constraint violation - from \(originTable) to \(destinationTable)"
            + (originRowID.map { ", in rowid \($0)" } ?? "")
    }

    /// The description, with the columns of the foreign key and the row, when `db` can
    /// read them: `... - from book(authorId) to author(id), in [id:1 authorId:2]`.
    public func failureDescription(_ db: Database) throws -> String {
        var text = "FOREIGN KEY constraint violation - from \(originTable)"
        if let key = try db.foreignKeys(on: originTable).first(where: { $0.id == foreignKeyId }) {
            text += "(\(key.originColumns.joined(separator: ", "))) to \(destinationTable)(\(key.destinationColumns.joined(separator: ", ")))"
        } else {
            text += " to \(destinationTable)"
        }
        if let originRowID {
            let row = try Row.fetchOne(db, sql: "SELECT * FROM \(originTable.quotedDatabaseIdentifier) WHERE rowid = ?", arguments: [originRowID])
            text += row.map { ", in \($0)" } ?? ", in rowid \(originRowID)"
        }
        return text
    }

    /// The error that `checkForeignKeys()` throws for this violation.
    public func databaseError(_ db: Database) -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY, message: (try? failureDescription(db)) ?? description)
    }
}
