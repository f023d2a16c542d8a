extension QueryInterfaceRequest {
    /// The request, with a common table expression in its `WITH` clause. An expression of
    /// the same table name that the request already embeds is replaced.
    ///
    /// ```swift
    /// // WITH "answer" AS (SELECT 42 AS value) SELECT * FROM "answer"
    /// let request = answer.all().with(answer)
    /// ```
    ///
    /// - Parameter cte: A common table expression.
    public func with<T>(_ cte: CommonTableExpression<T>) -> Self {
        var request = self
        let name = cte.tableName.lowercased()
        request.commonTableExpressions.removeAll { $0.tableName.lowercased() == name }
        request.commonTableExpressions.append(cte.definition)
        return request
    }
}

extension TableRecord {
    /// A request of all records, with a common table expression in its `WITH` clause.
    ///
    /// - Parameter cte: A common table expression.
    public static func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<Self> {
        all().with(cte)
    }
}

extension Table {
    /// A request of all rows of the table, with a common table expression in its `WITH`
    /// clause.
    ///
    /// - Parameter cte: A common table expression.
    public func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<RowDecoder> {
        all().with(cte)
    }
}
