// The implicit-member spellings of the rowid and of all columns, as GRDB code writes them:
// `row[.rowID]`, `container[.rowID] = id`, `databaseSelection: [.allColumns, .rowID]`.

extension ColumnExpression where Self == Column {
    /// The hidden rowid column: `row[.rowID]`.
    public static var rowID: Self { Column.rowID }
}

extension SQLSpecificExpressible where Self == Column {
    /// The hidden rowid column: `Player.filter(.rowID == 1)`.
    public static var rowID: Self { Column.rowID }
}

extension SQLSelectable where Self == Column {
    /// The hidden rowid column, selected: `Player.select(.rowID)`.
    public static var rowID: Self { Column.rowID }
}

extension SQLSelectable where Self == SQLSelection {
    /// All columns but these: `Player.select(.allColumns(excluding: ["secret"]))`.
    ///
    /// - Parameter excludedColumns: The names of the columns to leave out.
    public static func allColumns(excluding excludedColumns: some Collection<String>) -> SQLSelection {
        SQLSelection.allColumns(excluding: excludedColumns)
    }
}

extension SQLSelectable where Self == AllColumns {
    /// All columns, selected: `[.allColumns, .rowID]`.
    public static var allColumns: AllColumns { AllColumns() }
}

extension PersistenceContainer {
    /// The value of a column (case-insensitive); setting nil stores NULL:
    /// `container[.rowID] = id`.
    ///
    /// - parameter column: the column.
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        get { self[column.name] }
        set { self[column.name] = newValue }
    }
}
