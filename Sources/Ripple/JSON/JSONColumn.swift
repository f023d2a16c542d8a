/// A table column that holds JSON text.
///
/// It is a ``Column`` with the conveniences of ``SQLJSONExpressible``: access to its
/// JSON subcomponents, and JSON-building functions read it as JSON rather than as a
/// plain string.
///
/// ```swift
/// let address = JSONColumn("address")
/// // SELECT DISTINCT address ->> 'countryCode' FROM player
/// let countryCodes = try String.fetchAll(db, Player.select(address["countryCode"]).distinct())
/// ```
public struct JSONColumn: ColumnExpression, SQLJSONExpressible, SQLOrderingTerm, SQLSelectable {
    /// The column name.
    public var name: String

    /// Creates a JSON column given its unqualified name, such as `"info"`.
    ///
    /// - Parameter name: The column name.
    public init(_ name: String) {
        self.name = name
    }

    /// Creates a JSON column named after a coding key.
    ///
    /// - Parameter codingKey: The coding key whose string value is the column name.
    public init(_ codingKey: some CodingKey) {
        self.name = codingKey.stringValue
    }

    /// The column, read as JSON by JSON-building functions.
    public var sqlExpression: SQLExpression {
        SQLExpression(.column(name)).withJSONInterpretation()
    }
}
