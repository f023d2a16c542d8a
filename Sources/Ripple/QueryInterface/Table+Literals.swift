// The SQL literal, array and annotation forms of the request builders, on a table.
extension Table {
    /// See `QueryInterfaceRequest.select(sql:arguments:)`.
    ///
    /// - Parameters:
    ///   - sql: The selected columns.
    ///   - arguments: The values of their parameters.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder> {
        all().select(sql: sql, arguments: arguments)
    }

    /// See `QueryInterfaceRequest.select(literal:)`.
    ///
    /// - Parameter sqlLiteral: The selected columns.
    public func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> {
        all().select(literal: sqlLiteral)
    }

    /// See `QueryInterfaceRequest.select(sql:arguments:as:)`.
    ///
    /// - Parameters:
    ///   - sql: The selected columns.
    ///   - arguments: The values of their parameters.
    ///   - type: The fetched type.
    public func select<T>(sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(sql: sql, arguments: arguments, as: type)
    }

    /// See `QueryInterfaceRequest.select(literal:as:)`.
    ///
    /// - Parameters:
    ///   - sqlLiteral: The selected columns.
    ///   - type: The fetched type.
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(literal: sqlLiteral, as: type)
    }

    /// Selects these columns or expressions.
    ///
    /// - Parameter selection: The selected columns or expressions.
    public func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> {
        all().select(selection)
    }

    /// See `QueryInterfaceRequest.select(_:as:)`.
    ///
    /// - Parameters:
    ///   - selection: The selected columns or expressions.
    ///   - type: The fetched type.
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// See `QueryInterfaceRequest.selectPrimaryKey(as:)`: `SELECT "id" FROM "player"`.
    ///
    /// - Parameter type: The fetched type.
    public func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self) -> QueryInterfaceRequest<PrimaryKey> {
        all().selectPrimaryKey(as: type)
    }

    /// See `QueryInterfaceRequest.selectID()`.
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> where RowDecoder: Identifiable {
        all().selectID()
    }

    /// See `QueryInterfaceRequest.annotated(with:)`.
    ///
    /// - Parameter selection: The columns or expressions to append to `*`.
    public func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: selection)
    }

    /// See `QueryInterfaceRequest.annotated(with:)`.
    ///
    /// - Parameter selection: The columns or expressions to append to `*`.
    public func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: selection)
    }

    /// See `QueryInterfaceRequest.filter(literal:)`.
    ///
    /// - Parameter sqlLiteral: The condition.
    public func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(literal: sqlLiteral)
    }

    /// See `QueryInterfaceRequest.order(literal:)`.
    ///
    /// - Parameter sqlLiteral: The orderings.
    public func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> {
        all().order(literal: sqlLiteral)
    }

    /// Sorts by these orderings.
    ///
    /// - Parameter orderings: Columns, expressions, or orderings.
    public func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<RowDecoder> {
        all().order(orderings)
    }

    /// See `QueryInterfaceRequest.group(_:)`.
    ///
    /// - Parameter expressions: The grouping columns or expressions.
    public func group(_ expressions: [any SQLExpressible]) -> QueryInterfaceRequest<RowDecoder> {
        all().group(expressions)
    }

    /// A request of no row.
    public func none() -> QueryInterfaceRequest<RowDecoder> {
        all().none()
    }
}
