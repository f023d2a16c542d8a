extension DatabaseQueue {
    /// A connection to an in-memory copy of the database at `path`: changes to the copy
    /// leave the file as it is, and the copy's memory goes with the connection.
    ///
    /// ```swift
    /// let dbQueue = try DatabaseQueue.inMemoryCopy(fromPath: "/path/to/database.sqlite")
    /// ```
    ///
    /// - parameter path: the database file to copy (opened read-only).
    /// - parameter configuration: the copy's configuration; with `readonly`, the copy
    ///   refuses writes.
    public static func inMemoryCopy(fromPath path: String, configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        var copyConfiguration = configuration
        copyConfiguration.readonly = false
        return try copy(fromPath: path, into: DatabaseQueue(configuration: copyConfiguration), readonly: configuration.readonly)
    }

    /// A connection to a private, temporary copy of the database at `path`, on disk:
    /// SQLite deletes it when the connection closes.
    ///
    /// ```swift
    /// let dbQueue = try DatabaseQueue.temporaryCopy(fromPath: "/path/to/database.sqlite")
    /// ```
    ///
    /// - parameter path: the database file to copy (opened read-only).
    /// - parameter configuration: the copy's configuration; with `readonly`, the copy
    ///   refuses writes.
    public static func temporaryCopy(fromPath path: String, configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        var copyConfiguration = configuration
        copyConfiguration.readonly = false
        // (An empty path is SQLite's private temporary database, deleted at close.)
        return try copy(fromPath: path, into: DatabaseQueue(path: "", configuration: copyConfiguration), readonly: configuration.readonly)
    }

    private static func copy(fromPath path: String, into copy: DatabaseQueue, readonly: Bool) throws -> DatabaseQueue {
        var sourceConfiguration = Configuration()
        sourceConfiguration.readonly = true
        sourceConfiguration.observesExternalChanges = false
        let source = try DatabaseQueue(path: path, configuration: sourceConfiguration)
        try source.backup(to: copy)
        try source.close()
        if readonly {
            // The copy was opened for writing, to receive the backup; from now on SQLite
            // refuses its writes (`attempt to write a readonly database`).
            try copy.writeWithoutTransaction { db in
                try db.withStatementsHiddenFromTrace { try db.execute(sql: "PRAGMA query_only = 1") }
            }
        }
        return copy
    }
}
