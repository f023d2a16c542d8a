// The `id:` spellings of the key methods, for `Identifiable` records whose id is their
// primary key, as GRDB has them.

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// Records with this id: `Player.filter(id: 1)`.
    public static func filter(id: ID) -> QueryInterfaceRequest<Self> { all().filter(key: id) }

    /// Records with these ids: `Player.filter(ids: [1, 2, 3])`.
    public static func filter(ids: some Collection<ID>) -> QueryInterfaceRequest<Self> { all().filter(keys: ids) }

    /// Deletes the record with this id; returns whether there was one.
    @discardableResult
    public static func deleteOne(_ db: Database, id: ID) throws -> Bool { try deleteOne(db, key: id) }

    /// Deletes the records with these ids; returns how many were deleted.
    @discardableResult
    public static func deleteAll(_ db: Database, ids: some Collection<ID>) throws -> Int { try deleteAll(db, keys: ids) }

    /// Whether a record with this id exists.
    public static func exists(_ db: Database, id: ID) throws -> Bool { try exists(db, key: id) }

    /// The ids of the records: `SELECT "id" FROM "player"` (see `QueryInterfaceRequest.selectID()`).
    public static func selectID() -> QueryInterfaceRequest<ID> { all().selectID() }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord & Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// Keeps the record with this id.
    public func filter(id: RowDecoder.ID) -> Self { filter(key: id) }

    /// Keeps the records with these ids.
    public func filter(ids: some Collection<RowDecoder.ID>) -> Self { filter(keys: ids) }
}

extension FetchableRecord where Self: TableRecord & Identifiable, ID: DatabaseValueConvertible {
    /// The records with these ids.
    public static func fetchAll(_ db: Database, ids: some Collection<ID>) throws -> [Self] {
        try fetchAll(db, keys: ids)
    }
}

extension FetchableRecord where Self: TableRecord & Identifiable & Hashable, ID: DatabaseValueConvertible {
    /// The distinct records with these ids.
    public static func fetchSet(_ db: Database, ids: some Collection<ID>) throws -> Set<Self> {
        try Set(fetchAll(db, ids: ids))
    }
}
