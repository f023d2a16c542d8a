import CSQLite

/// A custom SQL aggregate, written in Swift.
///
/// ```swift
/// struct MySum: DatabaseAggregate {
///     var sum = 0
///
///     mutating func step(_ dbValues: [DatabaseValue]) {
///         sum += Int.fromDatabaseValue(dbValues[0]) ?? 0
///     }
///
///     func finalize() -> (any DatabaseValueConvertible)? { sum }
/// }
///
/// let mySum = DatabaseFunction("mySum", argumentCount: 1, aggregate: MySum.self)
/// try dbQueue.write { db in
///     db.add(function: mySum)
///     try Int.fetchAll(db, sql: "SELECT mySum(score) FROM player GROUP BY team")
///     try Player.select(mySum(Column("score")), as: Int.self).fetchOne(db)
/// }
/// ```
///
/// Each aggregation (each group of a `GROUP BY`) gets a new instance, stepped once per
/// row, then finalized; a group of no rows is the finalize of a new instance. An error
/// thrown by `step` or `finalize` makes the statement fail, as an error thrown by a
/// function does; after an error from `step`, `finalize` is not called. When the
/// statement stops in the middle of an aggregation for another reason (an error, an
/// interrupt), SQLite still finalizes it, and ignores the result.
public protocol DatabaseAggregate: GRDBSendableMetatype {
    /// A new aggregation.
    init()

    /// Adds one row to the aggregation: `dbValues` holds the arguments of the SQL call,
    /// as many as the function's `argumentCount` when it is not nil.
    mutating func step(_ dbValues: [DatabaseValue]) throws

    /// The result of the aggregation.
    func finalize() throws -> (any DatabaseValueConvertible)?
}

extension DatabaseFunction {
    /// An aggregate named `name`, computed by `Aggregate`; `argumentCount` nil accepts
    /// any number of arguments.
    ///
    /// ```swift
    /// let mySum = DatabaseFunction("mySum", argumentCount: 1, aggregate: MySum.self)
    /// ```
    public convenience init<Aggregate: DatabaseAggregate>(
        _ name: String, argumentCount: Int? = nil, pure: Bool = false, aggregate: Aggregate.Type
    ) {
        self.init(name: name, argumentCount: argumentCount, pure: pure, kind: .aggregate { Aggregate() })
    }

    /// A new aggregation of the aggregate that `add(function:)` gave SQLite, from the
    /// context of a call.
    fileprivate static func makeAggregate(in context: OpaquePointer?) -> (any DatabaseAggregate)? {
        guard case .aggregate(let make) = registered(in: context)?.kind else {
            assertionFailure("aggregate callbacks of a function that is no aggregate")
            return nil
        }
        return make()
    }
}

/// The aggregate of one aggregation, kept in SQLite's aggregate context of that
/// aggregation from its first step to its final call.
///
/// Invariant: the aggregate context is NULL (no step yet), or holds nil or one retained
/// reference to the aggregation's box, stored by its first `step` and taken back once, by
/// `final`, which clears it. SQLite calls xFinal for every aggregate context it allocated,
/// also when the statement stops before the end of the aggregation (an error, a reset), so
/// that no box outlives the run of its statement.
final class _AggregateContextBox {
    private var aggregate: any DatabaseAggregate
    /// Whether `step` threw: the statement fails, and `finalize` is not called.
    private var failed = false

    private init(_ aggregate: any DatabaseAggregate) {
        self.aggregate = aggregate
    }

    /// SQLite's xStep: one row of an aggregation.
    static func step(_ context: OpaquePointer?, _ count: CInt, _ values: UnsafeMutablePointer<OpaquePointer?>?) {
        // SQLite allocates and zeroes the context at the first call of the aggregation:
        // a nil reference.
        guard let raw = sqlite3_aggregate_context(context, CInt(MemoryLayout<UnsafeMutableRawPointer?>.stride)) else {
            sqlite3_result_error_nomem(context)
            return
        }
        let reference = raw.bindMemory(to: UnsafeMutableRawPointer?.self, capacity: 1)
        let box: _AggregateContextBox
        if let stored = reference.pointee {
            box = _CallbackContext<_AggregateContextBox>.retainedObject(stored)
        } else {
            guard let aggregate = DatabaseFunction.makeAggregate(in: context) else { return }
            box = _AggregateContextBox(aggregate)
            reference.pointee = _CallbackContext.retained(box)
        }
        // SQLite stops the statement at the first error; a later step would see a state
        // the failed step left halfway.
        guard !box.failed else { return }
        do {
            try box.aggregate.step(DatabaseFunction.arguments(count, values))
        } catch {
            box.failed = true
            DatabaseFunction.setError(error, in: context)
        }
    }

    /// SQLite's xFinal: the end of an aggregation, which releases its box.
    static func final(_ context: OpaquePointer?) {
        let aggregate: any DatabaseAggregate
        // N = 0: an aggregation of no rows allocates nothing.
        if let raw = sqlite3_aggregate_context(context, 0),
            let stored = raw.assumingMemoryBound(to: UnsafeMutableRawPointer?.self).pointee
        {
            raw.assumingMemoryBound(to: UnsafeMutableRawPointer?.self).pointee = nil
            var box = _CallbackContext<_AggregateContextBox>.takeRetained(stored)
            assert(isKnownUniquelyReferenced(&box), "the aggregate context held the only reference to its box")
            guard !box.failed else { return }
            aggregate = box.aggregate
        } else {
            guard let fresh = DatabaseFunction.makeAggregate(in: context) else { return }
            aggregate = fresh
        }
        do {
            try DatabaseFunction.setResult(aggregate.finalize(), in: context)
        } catch {
            DatabaseFunction.setError(error, in: context)
        }
    }
}
