/// `column = value`, for `updateAll`:
///
/// ```swift
/// try Player.updateAll(db, Column("score").set(to: 0))
/// try Player.filter { $0.team == "red" }.updateAll(db) { $0.score += 10 }
/// ```
public struct ColumnAssignment: Sendable {
    let columnName: String
    /// nil for ``ColumnExpression/noOverwrite``: the column is left as it is.
    let value: SQLExpression?

    /// `"column" = value`; nil for an assignment that leaves the column as it is.
    func sql(_ context: inout SQLGenerationContext) -> String? {
        value.map { columnName.quotedDatabaseIdentifier + " = " + $0.sql(&context) }
    }
}

extension ColumnExpression {
    /// An assignment for `updateAll`: `Column("score").set(to: 0)`; nil sets NULL.
    public func set(to value: (any SQLExpressible)?) -> ColumnAssignment {
        ColumnAssignment(columnName: name, value: value?.sqlExpression ?? SQLExpression(.value(.null)))
    }

    /// An assignment that leaves the column as it is: in the `doUpdate` assignments of an
    /// upsert, a column that the conflict does not overwrite.
    ///
    /// ```swift
    /// // On conflict, updates every column but 'score'.
    /// let upserted = try player.upsertAndFetch(db) { _ in [Column("score").noOverwrite] }
    /// ```
    public var noOverwrite: ColumnAssignment { ColumnAssignment(columnName: name, value: nil) }

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
