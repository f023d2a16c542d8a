// Records of the scopes of a fetched row: the author included with a book.

extension Row {
    /// Whether one column of the row, or of its scopes, at least is not NULL: the scope
    /// of a missing optional association (`LEFT JOIN`) is all NULLs.
    public var containsNonNullValue: Bool {
        if (0..<count).contains(where: { !hasNull(atIndex: $0) }) { return true }
        // (A scope with no column of its own may hold scopes with values, as in GRDB.)
        return !scopes.isEmpty && scopes.contains { $0.row.containsNonNullValue }
    }

    /// The record of the scope named `scope`: `let author: Author = row["author"]`.
    ///
    /// A missing scope, or a record that cannot be built from it, stops the process, as
    /// in GRDB: `try row.decode(forKey:)` throws instead.
    ///
    /// - Parameter scope: The scope's name (the association's key).
    public subscript<Record: FetchableRecord>(_ scope: String) -> Record {
        do {
            return try decode(Record.self, forKey: scope)
        } catch {
            fatalError("\(error). Use `try row.decode(\(Record.self).self, forKey: \"\(scope)\")` to get an error.")
        }
    }

    /// The record of the scope named `scope`, nil when there is no such scope or when its
    /// columns are all NULL (a missing optional association).
    ///
    /// - Parameter scope: The scope's name (the association's key).
    public subscript<Record: FetchableRecord>(_ scope: String) -> Record? {
        do {
            return try decodeIfPresent(Record.self, forKey: scope)
        } catch {
            fatalError("\(error). Use `try row.decodeIfPresent(\(Record.self).self, forKey: \"\(scope)\")` to get an error.")
        }
    }

    /// The record of the scope named `scope` (searched in nested scopes too).
    ///
    /// - Parameters:
    ///   - type: The record type.
    ///   - scope: The scope's name (the association's key).
    /// - Throws: A `DatabaseError` when there is no such scope, or the record's error.
    public func decode<Record: FetchableRecord>(_ type: Record.Type = Record.self, forKey scope: String) throws -> Record {
        guard let scopedRow = scopesTree[scope] else {
            let names = scopesTree.names.sorted()
            throw DatabaseError.mismatch(
                "no scope \"\(scope)\" in the row" + (names.isEmpty ? "" : " (its scopes: \(names.joined(separator: ", ")))"),
                sql: nil, arguments: nil)
        }
        return try Record(row: scopedRow)
    }

    /// The record of the scope named `scope`, nil when there is no such scope or when its
    /// columns are all NULL (a missing optional association).
    ///
    /// - Parameters:
    ///   - type: The record type.
    ///   - scope: The scope's name (the association's key).
    /// - Throws: The record's error.
    public func decodeIfPresent<Record: FetchableRecord>(_ type: Record.Type = Record.self, forKey scope: String) throws -> Record? {
        guard let scopedRow = scopesTree[scope], scopedRow.containsNonNullValue else { return nil }
        return try Record(row: scopedRow)
    }
}
