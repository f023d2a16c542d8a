// Operators on aggregates of associations: `Author.books.count > 2`, `Team.players.count +
// Team.coaches.count`. The result reads the associations of both sides, and has no name.

extension AssociationAggregate {
    /// `lhs = rhs` (`IS` for nil), on aggregates.
    public static func == (lhs: Self, rhs: Self) -> Self {
        lhs.combined(with: rhs) { $0 == $1 }
    }

    /// `lhs = rhs` (`IS` for nil), an aggregate and a value.
    public static func == (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        if let bool = rhs as? Bool, let emptiness = lhs.emptiness(negated: !bool) { return emptiness }
        let value = rhs?.sqlExpression ?? SQLExpression(.value(.null))
        return lhs.mapped { $0 == value }
    }

    /// `lhs = rhs` (`IS` for nil), a value and an aggregate.
    public static func == (lhs: (any SQLExpressible)?, rhs: Self) -> Self {
        let value = lhs?.sqlExpression ?? SQLExpression(.value(.null))
        return rhs.mapped { value == $0 }
    }

    /// `lhs <> rhs` (`IS NOT` for nil), on aggregates.
    public static func != (lhs: Self, rhs: Self) -> Self {
        lhs.combined(with: rhs) { $0 != $1 }
    }

    /// `lhs <> rhs` (`IS NOT` for nil), an aggregate and a value.
    public static func != (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        if let bool = rhs as? Bool, let emptiness = lhs.emptiness(negated: bool) { return emptiness }
        let value = rhs?.sqlExpression ?? SQLExpression(.value(.null))
        return lhs.mapped { $0 != value }
    }

    /// `lhs <> rhs` (`IS NOT` for nil), a value and an aggregate.
    public static func != (lhs: (any SQLExpressible)?, rhs: Self) -> Self {
        let value = lhs?.sqlExpression ?? SQLExpression(.value(.null))
        return rhs.mapped { value != $0 }
    }

    /// `lhs < rhs`, on aggregates.
    public static func < (lhs: Self, rhs: Self) -> Self {
        lhs.combined(with: rhs) { $0 < $1 }
    }

    /// `lhs < rhs`, an aggregate and a value.
    public static func < (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.mapped { $0 < value }
    }

    /// `lhs < rhs`, a value and an aggregate.
    public static func < (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.mapped { value < $0 }
    }

    /// `lhs <= rhs`, on aggregates.
    public static func <= (lhs: Self, rhs: Self) -> Self {
        lhs.combined(with: rhs) { $0 <= $1 }
    }

    /// `lhs <= rhs`, an aggregate and a value.
    public static func <= (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.mapped { $0 <= value }
    }

    /// `lhs <= rhs`, a value and an aggregate.
    public static func <= (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.mapped { value <= $0 }
    }

    /// `lhs > rhs`, on aggregates.
    public static func > (lhs: Self, rhs: Self) -> Self {
        lhs.combined(with: rhs) { $0 > $1 }
    }

    /// `lhs > rhs`, an aggregate and a value.
    public static func > (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.mapped { $0 > value }
    }

    /// `lhs > rhs`, a value and an aggregate.
    public static func > (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.mapped { value > $0 }
    }

    /// `lhs >= rhs`, on aggregates.
    public static func >= (lhs: Self, rhs: Self) -> Self {
        lhs.combined(with: rhs) { $0 >= $1 }
    }

    /// `lhs >= rhs`, an aggregate and a value.
    public static func >= (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.mapped { $0 >= value }
    }

    /// `lhs >= rhs`, a value and an aggregate.
    public static func >= (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.mapped { value >= $0 }
    }

    /// `lhs AND rhs`, on aggregates.
    public static func && (lhs: Self, rhs: Self) -> Self {
        lhs.combined(with: rhs) { $0 && $1 }
    }

    /// `lhs AND rhs`, an aggregate and a value.
    public static func && (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.mapped { $0 && value }
    }

    /// `lhs AND rhs`, a value and an aggregate.
    public static func && (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.mapped { value && $0 }
    }

    /// `lhs OR rhs`, on aggregates.
    public static func || (lhs: Self, rhs: Self) -> Self {
        lhs.combined(with: rhs) { $0 || $1 }
    }

    /// `lhs OR rhs`, an aggregate and a value.
    public static func || (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.mapped { $0 || value }
    }

    /// `lhs OR rhs`, a value and an aggregate.
    public static func || (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.mapped { value || $0 }
    }

    /// `lhs + rhs`, on aggregates.
    public static func + (lhs: Self, rhs: Self) -> Self {
        lhs.combined(with: rhs) { $0 + $1 }
    }

    /// `lhs + rhs`, an aggregate and a value.
    public static func + (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.mapped { $0 + value }
    }

    /// `lhs + rhs`, a value and an aggregate.
    public static func + (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.mapped { value + $0 }
    }

    /// `lhs - rhs`, on aggregates.
    public static func - (lhs: Self, rhs: Self) -> Self {
        lhs.combined(with: rhs) { $0 - $1 }
    }

    /// `lhs - rhs`, an aggregate and a value.
    public static func - (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.mapped { $0 - value }
    }

    /// `lhs - rhs`, a value and an aggregate.
    public static func - (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.mapped { value - $0 }
    }

    /// `lhs * rhs`, on aggregates.
    public static func * (lhs: Self, rhs: Self) -> Self {
        lhs.combined(with: rhs) { $0 * $1 }
    }

    /// `lhs * rhs`, an aggregate and a value.
    public static func * (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.mapped { $0 * value }
    }

    /// `lhs * rhs`, a value and an aggregate.
    public static func * (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.mapped { value * $0 }
    }

    /// `lhs / rhs`, on aggregates.
    public static func / (lhs: Self, rhs: Self) -> Self {
        lhs.combined(with: rhs) { $0 / $1 }
    }

    /// `lhs / rhs`, an aggregate and a value.
    public static func / (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.mapped { $0 / value }
    }

    /// `lhs / rhs`, a value and an aggregate.
    public static func / (lhs: some SQLExpressible, rhs: Self) -> Self {
        let value = lhs.sqlExpression
        return rhs.mapped { value / $0 }
    }

    /// `NOT aggregate`.
    public static prefix func ! (aggregate: Self) -> Self {
        aggregate.emptiness(negated: true) ?? aggregate.mapped { !$0 }
    }

    /// `-aggregate`.
    public static prefix func - (aggregate: Self) -> Self {
        aggregate.mapped { -$0 }
    }
}

extension AssociationAggregate {
    /// `IFNULL(aggregate, value)`, under the aggregate's name: `Team.players.min(\.score) ?? 0`
    /// is `minPlayerScore`.
    ///
    /// - Parameters:
    ///   - lhs: An aggregate.
    ///   - rhs: Its value when the aggregate is NULL.
    public static func ?? (lhs: Self, rhs: some SQLExpressible) -> Self {
        let value = rhs.sqlExpression
        return lhs.mapped(keepingKey: true) { $0 ?? value }
    }
}

/// `ABS(aggregate)`.
///
/// - Parameter aggregate: An aggregate of an association.
public func abs<RowDecoder>(_ aggregate: AssociationAggregate<RowDecoder>) -> AssociationAggregate<RowDecoder> {
    aggregate.mapped { abs($0) }
}

/// `LENGTH(aggregate)`.
///
/// - Parameter aggregate: An aggregate of an association.
public func length<RowDecoder>(_ aggregate: AssociationAggregate<RowDecoder>) -> AssociationAggregate<RowDecoder> {
    aggregate.mapped { length($0) }
}

/// `CAST(aggregate AS type)`, under the aggregate's name.
///
/// - Parameters:
///   - aggregate: An aggregate of an association.
///   - storageClass: The storage class of the result.
public func cast<RowDecoder>(_ aggregate: AssociationAggregate<RowDecoder>, as storageClass: Database.StorageClass) -> AssociationAggregate<
    RowDecoder
> {
    aggregate.mapped(keepingKey: true) { SQLExpression.cast($0, as: storageClass) }
}
