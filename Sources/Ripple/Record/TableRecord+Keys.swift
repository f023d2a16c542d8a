// The remaining key spellings of GRDB: cursors and sets by primary key, and deleting or
// testing by a key given as columns and values. Empty key lists do not hit the database.

extension FetchableRecord where Self: TableRecord {
    /// A cursor over the records with these primary keys: `Player.fetchCursor(db, keys: [1, 2])`.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - keys: A collection of primary keys.
    public static func fetchCursor(
        _ db: Database,
        keys: some Collection<some DatabaseValueConvertible>
    ) throws -> RecordCursor<Self> {
        try filter(keys: keys).fetchCursor(db)
    }

    /// A cursor over the records with these keys, given as columns and values:
    /// `Citizenship.fetchCursor(db, keys: [["citizenId": 1, "countryCode": "FR"]])`.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - keys: An array of primary or unique keys.
    public static func fetchCursor(
        _ db: Database,
        keys: [[String: (any DatabaseValueConvertible)?]]
    ) throws -> RecordCursor<Self> {
        try filter(keys: keys).fetchCursor(db)
    }

    /// The records with these keys, given as columns and values.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - keys: An array of primary or unique keys.
    public static func fetchAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> [Self] {
        if keys.isEmpty { return [] }
        return try filter(keys: keys).fetchAll(db)
    }
}

extension FetchableRecord where Self: TableRecord & Hashable {
    /// The distinct records with these primary keys.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - keys: A collection of primary keys.
    public static func fetchSet(
        _ db: Database,
        keys: some Collection<some DatabaseValueConvertible>
    ) throws -> Set<Self> {
        if keys.isEmpty { return [] }
        return try filter(keys: keys).fetchSet(db)
    }

    /// The distinct records with these keys, given as columns and values.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - keys: An array of primary or unique keys.
    public static func fetchSet(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Set<Self> {
        if keys.isEmpty { return [] }
        return try filter(keys: keys).fetchSet(db)
    }
}

extension FetchableRecord where Self: TableRecord & Identifiable, ID: DatabaseValueConvertible {
    /// A cursor over the records with these ids.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - ids: A collection of ids.
    public static func fetchCursor(_ db: Database, ids: some Collection<ID>) throws -> RecordCursor<Self> {
        try filter(ids: ids).fetchCursor(db)
    }
}

extension TableRecord {
    /// Deletes the records with these keys, given as columns and values; returns how many
    /// were deleted.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - keys: An array of primary or unique keys.
    @discardableResult
    public static func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        if keys.isEmpty { return 0 }
        return try filter(keys: keys).deleteAll(db)
    }

    /// Deletes the record with this key, given as columns and values; returns whether
    /// there was one.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - key: A primary or unique key.
    @discardableResult
    public static func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try deleteAll(db, keys: [key]) > 0
    }

    /// Whether a record with this key, given as columns and values, exists.
    ///
    /// - parameters:
    ///     - db: A database connection.
    ///     - key: A primary or unique key.
    public static func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }
}
