// The `id:` spellings of `Table`'s key methods, for `Identifiable` row types whose id is
// their primary key, as GRDB has them: `Table<Player>("player").filter(id: 1)`.

extension Table where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// The rows with this id.
    public func filter(id: RowDecoder.ID) -> QueryInterfaceRequest<RowDecoder> { all().filter(key: id) }

    /// The rows with these ids.
    public func filter(ids: some Collection<RowDecoder.ID>) -> QueryInterfaceRequest<RowDecoder> { all().filter(keys: ids) }

    /// Deletes the row with this id; returns whether there was one.
    @discardableResult
    public func deleteOne(_ db: Database, id: RowDecoder.ID) throws -> Bool { try deleteOne(db, key: id) }

    /// Deletes the rows with these ids; returns how many were deleted.
    @discardableResult
    public func deleteAll(_ db: Database, ids: some Collection<RowDecoder.ID>) throws -> Int { try filter(ids: ids).deleteAll(db) }
}

extension Table where RowDecoder: FetchableRecord & Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// The record with this id, if any.
    public func fetchOne(_ db: Database, id: RowDecoder.ID) throws -> RowDecoder? { try filter(id: id).fetchOne(db) }

    /// The records with these ids.
    public func fetchAll(_ db: Database, ids: some Collection<RowDecoder.ID>) throws -> [RowDecoder] { try filter(ids: ids).fetchAll(db) }
}
