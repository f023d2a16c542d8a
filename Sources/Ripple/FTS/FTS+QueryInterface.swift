extension QueryInterfaceRequest {
    /// Keeps the rows of the full-text table that match `pattern` (none if nil):
    /// `SELECT * FROM "document" WHERE "document" MATCH 'sqlite'`.
    ///
    /// - parameter pattern: an FTS3 or FTS4 pattern.
    public func matching(_ pattern: FTS3Pattern?) -> Self {
        tableMatching(pattern)
    }

    /// Keeps the rows of the full-text table that match `pattern` (none if nil):
    /// `SELECT * FROM "document" WHERE "document" MATCH 'sqlite'`.
    ///
    /// - parameter pattern: an FTS5 pattern.
    public func matching(_ pattern: FTS5Pattern?) -> Self {
        tableMatching(pattern)
    }

    private func tableMatching(_ pattern: (some DatabaseValueConvertible)?) -> Self {
        // The table name on the left of MATCH searches all columns of the table.
        filter(pattern.map { infix("MATCH", Column(tableName), $0) } ?? SQLExpression(sql: "0"))
    }
}

extension TableRecord {
    /// The records of the full-text table that match `pattern` (none if nil).
    ///
    /// - parameter pattern: an FTS3 or FTS4 pattern.
    public static func matching(_ pattern: FTS3Pattern?) -> QueryInterfaceRequest<Self> {
        all().matching(pattern)
    }

    /// The records of the full-text table that match `pattern` (none if nil).
    ///
    /// - parameter pattern: an FTS5 pattern.
    public static func matching(_ pattern: FTS5Pattern?) -> QueryInterfaceRequest<Self> {
        all().matching(pattern)
    }
}

extension Table {
    /// The rows of the full-text table that match `pattern` (none if nil).
    ///
    /// - parameter pattern: an FTS3 or FTS4 pattern.
    public func matching(_ pattern: FTS3Pattern?) -> QueryInterfaceRequest<RowDecoder> {
        all().matching(pattern)
    }

    /// The rows of the full-text table that match `pattern` (none if nil).
    ///
    /// - parameter pattern: an FTS5 pattern.
    public func matching(_ pattern: FTS5Pattern?) -> QueryInterfaceRequest<RowDecoder> {
        all().matching(pattern)
    }
}

extension ColumnExpression {
    /// `"column" MATCH 'pattern'`: whether the column matches the pattern (NULL if nil).
    ///
    /// - parameter pattern: an FTS3 or FTS4 pattern.
    public func match(_ pattern: FTS3Pattern?) -> SQLExpression {
        infix("MATCH", self, pattern)
    }

    /// `"column" MATCH 'pattern'`: whether the column matches the pattern.
    ///
    /// - parameter pattern: an FTS5 pattern.
    public func match(_ pattern: FTS5Pattern) -> SQLExpression {
        infix("MATCH", self, pattern)
    }
}
