extension Row: Equatable, Hashable {
    /// Rows are equal when they have the same column names and values, in the same order,
    /// and, for rows of associations, the same scopes and prefetched rows (as in GRDB).
    public static func == (lhs: Row, rhs: Row) -> Bool {
        if lhs === rhs { return true }
        guard lhs.columnNames == rhs.columnNames && lhs.databaseValues == rhs.databaseValues else { return false }
        // Rows of associations also compare their scopes and prefetched rows, as GRDB's do.
        guard lhs.scopes.names == rhs.scopes.names else { return false }
        for (name, scope) in lhs.scopes where rhs.scopes[name] != scope { return false }
        return lhs.prefetchedRowsStorage == rhs.prefetchedRowsStorage
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(columnNames)
        hasher.combine(databaseValues)
    }
}

extension Row: CustomStringConvertible {
    /// `[id:1 name:"Arthur" score:NULL]`
    public var description: String {
        "[" + zip(columnNames, databaseValues).map { "\($0):\($1)" }.joined(separator: " ") + "]"
    }
}

extension Row: ExpressibleByDictionaryLiteral {
    /// A row built from a literal, columns in the literal's order:
    /// `let row: Row = ["id": 1, "name": "Arthur"]`.
    public convenience init(dictionaryLiteral elements: (String, (any DatabaseValueConvertible)?)...) {
        self.init(elements)
    }
}

extension Row: Sequence {
    /// Iterates `(columnName, value)` pairs in column order.
    public func makeIterator() -> IndexingIterator<[(String, DatabaseValue)]> {
        Array(zip(columnNames, databaseValues)).makeIterator()
    }
}
