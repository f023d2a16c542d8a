// The rows of associations prefetched with `including(all:)`.

extension Row {
    /// The rows of the associations that the request prefetched for this row
    /// (`including(all:)`), by key:
    ///
    /// ```swift
    /// let row = try Row.fetchOne(db, Author.including(all: Author.books))!
    /// let bookRows = row.prefetchedRows["books"]!
    /// ```
    ///
    /// The rows that the associations of the row's scopes prefetched are found too:
    /// `row.prefetchedRows["cs"]` is `row.scopes["a"]!.prefetchedRows["cs"]` for a
    /// request `B.including(optional: B.a.including(all: A.cs))`.
    public var prefetchedRows: PrefetchedRowsView { PrefetchedRowsView(tree: prefetchedRowsStorage) }

    /// The rows of prefetched associations, by key.
    public struct PrefetchedRowsView: Equatable {
        let tree: PrefetchedRowsTree

        /// The keys of the prefetched associations, those of the row's scopes included.
        public var keys: Set<String> { tree.keys }

        /// Whether no association was prefetched.
        public var isEmpty: Bool { tree.isEmpty }

        /// The rows of the association of key `key` (searched breadth-first in the row's
        /// scopes too), nil when none was prefetched.
        public subscript(_ key: String) -> [Row]? { tree[key] }
    }

    /// The records of the prefetched association of key `key`:
    /// `let books: [Book] = row["books"]`. A missing key, or a record that cannot be built,
    /// stops the process, as in GRDB.
    ///
    /// - Parameter key: The association's key.
    public subscript<Records: RangeReplaceableCollection>(_ key: String) -> Records where Records.Element: FetchableRecord {
        guard let rows = prefetchedRowsStorage[key] else {
            fatalError(
                "no prefetched rows \"\(key)\" in the row (its keys: \(prefetchedRowsStorage.keys.sorted())): include them with including(all:)")
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
