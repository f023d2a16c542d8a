// SQL functions of the query interface that build plain SQLite function calls.

/// `ABS(value)`.
///
/// - Parameter value: A number expression.
public func abs(_ value: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.function("ABS", [value.sqlExpression.node]))
}

/// `TOTAL(value)`: the sum as a real number, `0.0` for no row.
///
/// - Parameter value: A number expression.
public func total(_ value: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.function("TOTAL", [value.sqlExpression.node]))
}

/// `COALESCE(values...)`: the first value that is not NULL. One value is itself, and no
/// value is NULL (SQLite's `COALESCE` wants two at least).
///
/// - Parameter values: The expressions to try in order.
public func coalesce(_ values: some Collection<any SQLSpecificExpressible>) -> SQLExpression {
    guard let first = values.first else { return SQLExpression(.value(.null)) }
    guard values.count > 1 else { return first.sqlExpression }
    return SQLExpression(.function("COALESCE", values.map(\.sqlExpression.node)))
}

extension SQLSpecificExpressible {
    /// `IFNULL(lhs, rhs)`: `Column("nickname") ?? Column("name")`.
    ///
    /// - Parameters:
    ///   - lhs: The expression that may be NULL.
    ///   - rhs: Its replacement when it is.
    public static func ?? (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression(.function("IFNULL", [lhs.sqlExpression.node, rhs.sqlExpression.node]))
    }
}

/// A modifier of the SQLite date functions: `dateTime(Column("date"), .startOfDay, .day(1))`.
public enum SQLDateModifier: SQLSpecificExpressible, Sendable {
    /// `N seconds`.
    case second(Double)
    /// `N minutes`.
    case minute(Int)
    /// `N hours`.
    case hour(Int)
    /// `N days`.
    case day(Int)
    /// `N months`.
    case month(Int)
    /// `N years`.
    case year(Int)
    /// `start of day`.
    case startOfDay
    /// `start of month`.
    case startOfMonth
    /// `start of year`.
    case startOfYear
    /// `weekday N`.
    case weekday(Int)
    /// `unixepoch`.
    case unixEpoch
    /// `localtime`.
    case localTime
    /// `utc`.
    case utc

    /// The modifier, as the string argument SQLite reads.
    public var sqlExpression: SQLExpression { modifier.sqlExpression }

    private var modifier: String {
        switch self {
        case .second(let value): return "\(value) seconds"
        case .minute(let value): return "\(value) minutes"
        case .hour(let value): return "\(value) hours"
        case .day(let value): return "\(value) days"
        case .month(let value): return "\(value) months"
        case .year(let value): return "\(value) years"
        case .startOfDay: return "start of day"
        case .startOfMonth: return "start of month"
        case .startOfYear: return "start of year"
        case .weekday(let value): return "weekday \(value)"
        case .unixEpoch: return "unixepoch"
        case .localTime: return "localtime"
        case .utc: return "utc"
        }
    }
}

/// `JULIANDAY(value, modifiers...)`.
///
/// - Parameters:
///   - value: A date expression.
///   - modifiers: Date modifiers.
public func julianDay(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
    SQLExpression(.function("JULIANDAY", [value.sqlExpression.node] + modifiers.map(\.sqlExpression.node)))
}

/// `DATETIME(value, modifiers...)`.
///
/// - Parameters:
///   - value: A date expression.
///   - modifiers: Date modifiers.
public func dateTime(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
    SQLExpression(.function("DATETIME", [value.sqlExpression.node] + modifiers.map(\.sqlExpression.node)))
}
