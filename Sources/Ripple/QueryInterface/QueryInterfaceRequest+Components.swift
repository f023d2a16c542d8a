// Grouping and annotations built from the columns of a record type (its
// `databaseComponents`): `Player.all().group { $0.teamId }`.
extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// Groups rows by the expression the closure builds from the table's columns.
    ///
    /// - Parameter expression: Builds the grouping expression.
    public func group(_ expression: (RowDecoder.DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        group([try expression(RowDecoder.databaseComponents)])
    }

    /// Groups rows by the expressions the closure builds from the table's columns.
    ///
    /// - Parameter expressions: Builds the grouping expressions.
    public func group(_ expressions: (RowDecoder.DatabaseComponents) throws -> [any SQLExpressible]) rethrows -> Self {
        group(try expressions(RowDecoder.databaseComponents))
    }

    /// Filters groups with the predicate the closure builds from the table's columns.
    ///
    /// - Parameter predicate: Builds the condition.
    public func having(_ predicate: (RowDecoder.DatabaseComponents) throws -> some SQLExpressible) rethrows -> Self {
        having(try predicate(RowDecoder.databaseComponents))
    }

    /// Appends what the closure builds from the table's columns to the selection.
    ///
    /// - Parameter selection: Builds the column or expression to append.
    public func annotated(_ selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        annotated(with: [try selection(RowDecoder.databaseComponents)])
    }

    /// Appends what the closure builds from the table's columns to the selection.
    ///
    /// - Parameter selection: Builds the columns or expressions to append.
    public func annotated(_ selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        annotated(with: try selection(RowDecoder.databaseComponents))
    }
}

// The same request builders on the record type, for `Player.annotated(with: ...)`.
extension TableRecord {
    /// See `QueryInterfaceRequest.select(sql:arguments:)`.
    ///
    /// - Parameters:
    ///   - sql: The selected columns.
    ///   - arguments: The values of their parameters.
    public static func select(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().select(sql: sql, arguments: arguments)
    }

    /// See `QueryInterfaceRequest.selectPrimaryKey(as:)`.
    ///
    /// - Parameter type: The fetched type.
    public static func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self) -> QueryInterfaceRequest<PrimaryKey> {
        all().selectPrimaryKey(as: type)
    }

    /// See `QueryInterfaceRequest.select(literal:)`.
    ///
    /// - Parameter sqlLiteral: The selected columns.
    public static func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().select(literal: sqlLiteral)
    }

    /// See `QueryInterfaceRequest.select(sql:arguments:as:)`.
    ///
    /// - Parameters:
    ///   - sql: The selected columns.
    ///   - arguments: The values of their parameters.
    ///   - type: The fetched type.
    public static func select<T>(sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type = T.self)
        -> QueryInterfaceRequest<T>
    {
        all().select(sql: sql, arguments: arguments, as: type)
    }

    /// See `QueryInterfaceRequest.select(literal:as:)`.
    ///
    /// - Parameters:
    ///   - sqlLiteral: The selected columns.
    ///   - type: The fetched type.
    public static func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(literal: sqlLiteral, as: type)
    }

    /// Selects these columns or expressions.
    ///
    /// - Parameter selection: The selected columns or expressions.
    public static func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> {
        all().select(selection)
    }

    /// See `QueryInterfaceRequest.select(_:as:)`.
    ///
    /// - Parameters:
    ///   - selection: The selected columns or expressions.
    ///   - type: The fetched type.
    public static func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// See `QueryInterfaceRequest.filter(literal:)`.
    ///
    /// - Parameter sqlLiteral: The condition.
    public static func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().filter(literal: sqlLiteral)
    }

    /// See `QueryInterfaceRequest.order(literal:)`.
    ///
    /// - Parameter sqlLiteral: The orderings.
    public static func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().order(literal: sqlLiteral)
    }

    /// Sorts by these orderings.
    ///
    /// - Parameter orderings: Columns, expressions, or orderings.
    public static func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<Self> {
        all().order(orderings)
    }

    /// See `QueryInterfaceRequest.annotated(with:)`.
    ///
    /// - Parameter selection: The columns or expressions to append to the selection.
    public static func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> {
        all().annotated(with: selection)
    }

    /// See `QueryInterfaceRequest.annotated(with:)`.
    ///
    /// - Parameter selection: The columns or expressions to append to the selection.
    public static func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
        all().annotated(with: selection)
    }

    /// Appends what the closure builds from the table's columns to the selection.
    ///
    /// - Parameter selection: Builds the column or expression to append.
    public static func annotated(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self> {
        try all().annotated(selection)
    }

    /// Appends what the closure builds from the table's columns to the selection.
    ///
    /// - Parameter selection: Builds the columns or expressions to append.
    public static func annotated(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self> {
        try all().annotated(selection)
    }

    /// Groups rows: `GROUP BY`.
    ///
    /// - Parameter expressions: The grouping columns or expressions.
    public static func group(_ expressions: any SQLExpressible...) -> QueryInterfaceRequest<Self> {
        all().group(expressions)
    }

    /// Groups rows by the expression the closure builds from the table's columns.
    ///
    /// - Parameter expression: Builds the grouping expression.
    public static func group(_ expression: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> QueryInterfaceRequest<Self> {
        try all().group(expression)
    }

    /// Groups rows by the expressions the closure builds from the table's columns.
    ///
    /// - Parameter expressions: Builds the grouping expressions.
    public static func group(_ expressions: (DatabaseComponents) throws -> [any SQLExpressible]) rethrows -> QueryInterfaceRequest<Self> {
        try all().group(expressions)
    }
}

extension Table where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// Whether the row with this primary key exists: `Table<Country>("country").exists(db, id: "FR")`.
    ///
    /// - Parameters:
    ///   - db: A connection.
    ///   - id: The primary key.
    public func exists(_ db: Database, id: RowDecoder.ID) throws -> Bool {
        try exists(db, key: id)
    }
}
