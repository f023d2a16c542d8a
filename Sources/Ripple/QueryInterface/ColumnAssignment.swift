/// `column = value`, for `updateAll`:
///
/// ```swift
/// try Player.updateAll(db, Column("score").set(to: 0))
/// try Player.filter { $0.team == "red" }.updateAll(db) { $0.score += 10 }
/// ```
public struct ColumnAssignment: Sendable {
    let columnName: String
    let value: SQLExpression
}

extension ColumnExpression {
    /// An assignment for `updateAll`: `Column("score").set(to: 0)`; nil sets NULL.
    public func set(to value: (any SQLExpressible)?) -> ColumnAssignment {
        ColumnAssignment(columnName: name, value: value?.sqlExpression ?? SQLExpression(.value(.null)))
    }

    /// `column = column <op> value`.
    fileprivate func assignment(_ op: String, _ value: any SQLExpressible) -> ColumnAssignment {
        ColumnAssignment(columnName: name, value: infix(op, self, value))
    }
}

/// `score = score + value`
public func += (column: some ColumnExpression, value: any SQLExpressible) -> ColumnAssignment {
    column.assignment("+", value)
}

/// `score = score - value`
public func -= (column: some ColumnExpression, value: any SQLExpressible) -> ColumnAssignment {
    column.assignment("-", value)
}

/// `score = score * value`
public func *= (column: some ColumnExpression, value: any SQLExpressible) -> ColumnAssignment {
    column.assignment("*", value)
}

/// `score = score / value`
public func /= (column: some ColumnExpression, value: any SQLExpressible) -> ColumnAssignment {
    column.assignment("/", value)
}

/// `flags = flags & value`
public func &= (column: some ColumnExpression, value: any SQLExpressible) -> ColumnAssignment {
    column.assignment("&", value)
}

/// `flags = flags | value`
public func |= (column: some ColumnExpression, value: any SQLExpressible) -> ColumnAssignment {
    column.assignment("|", value)
}

/// `flags = flags << value`
public func <<= (column: some ColumnExpression, value: any SQLExpressible) -> ColumnAssignment {
    column.assignment("<<", value)
}

/// `flags = flags >> value`
public func >>= (column: some ColumnExpression, value: any SQLExpressible) -> ColumnAssignment {
    column.assignment(">>", value)
}
