// The rows of associations prefetched with `including(all:)`.

extension Row {
    /// The rows of the associations that the request prefetched for this row
    /// (`including(all:)`), by key:
    ///
    /// ```swift
    /// let row = try Row.fetchOne(db, Author.including(all: Author.books))!
    /// let bookRows = row.prefetchedRows["books"]!
    /// ```
    public var prefetchedRows: PrefetchedRowsView { PrefetchedRowsView(rows: prefetchedRowsStorage) }

    /// The rows of prefetched associations, by key.
    public struct PrefetchedRowsView: Equatable {
        let rows: [String: [Row]]

        /// The keys of the prefetched associations.
        public var keys: Set<String> { Set(rows.keys) }

        /// Whether no association was prefetched.
        public var isEmpty: Bool { rows.isEmpty }

        /// The rows of the association of key `key`, nil when none was prefetched.
        public subscript(_ key: String) -> [Row]? { rows[key] }
    }

    /// The records of the prefetched association of key `key`:
    /// `let books: [Book] = row["books"]`. A missing key, or a record that cannot be built,
    /// stops the process, as in GRDB.
    ///
    /// - Parameter key: The association's key.
    public subscript<Records: RangeReplaceableCollection>(_ key: String) -> Records where Records.Element: FetchableRecord {
        guard let rows = prefetchedRowsStorage[key] else {
            fatalError("no prefetched rows \"\(key)\" in the row (its keys: \(prefetchedRowsStorage.keys.sorted())): include them with including(all:)")
        }
        do {
            return try Records(rows.map { try Records.Element(row: $0) })
        } catch {
            fatalError("\(error)")
        }
    }

    /// The records of the prefetched association of key `key`, as a set.
    ///
    /// - Parameter key: The association's key.
    public subscript<Record: FetchableRecord & Hashable>(_ key: String) -> Set<Record> {
        let records: [Record] = self[key]
        return Set(records)
    }
}
