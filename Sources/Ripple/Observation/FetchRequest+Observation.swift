/// Value observations of requests: the counterparts of RxGRDB's `rx.fetchCount`,
/// `rx.fetchOne` and `rx.fetchAll`.
///
/// | RxGRDB | Ripple |
/// |---|---|
/// | `request.rx.fetchCount(in:)` | `request.observationForCount()` |
/// | `request.rx.fetchOne(in:distinctUntilChanged:)` | `request.observationForFirst(distinctUntilChanged:)` |
/// | `request.rx.fetchAll(in:distinctUntilChanged:)` | `request.observationForAll(distinctUntilChanged:)` |
///
/// Start them with `start(in:scheduling:onError:onChange:)`, iterate them with
/// `values(in:)`, or turn them into publishers with `RippleCombine`. The observed region is
/// the request's own (with its rowids for requests filtered by primary key).
///
/// With `distinctUntilChanged`, identical consecutive results are skipped; the comparison
/// is done on the raw database values, before decoding, so that it does not involve the
/// fetched type.
extension FetchRequest {
    /// Observes the number of rows of the request.
    public func observationForCount() -> ValueObservation<Int> {
        let request = self
        return ValueObservation.tracking(region: self) { db in try request.fetchCount(db) }
    }

    /// An observation that fetches rows, and turns them into values when they differ from
    /// the previous ones (or always, without `distinctUntilChanged`).
    func observation<Value: Sendable>(
        distinctUntilChanged: Bool,
        forSingleResult: Bool,
        decode: @escaping @Sendable ([Row]) throws -> Value
    ) -> ValueObservation<Value> {
        let request = self
        return ValueObservation(regionSpec: .explicit([self])) {
            var previous: [Row]?
            return ValuePipeline<Value>(
                fetch: { db in
                    return try request.makePreparedRequest(db, forSingleResult: forSingleResult).fetchAllRows(db)
                },
                reduce: { raw in
                    let rows = raw as! [Row]
                    if distinctUntilChanged {
                        if let previous, previous == rows { return nil }
                        previous = rows
                    }
                    return try decode(rows)
                })
        }
    }
}

extension FetchRequest where RowDecoder == Row {
    /// Observes all rows.
    public func observationForAll(distinctUntilChanged: Bool = false) -> ValueObservation<[Row]> {
        observation(distinctUntilChanged: distinctUntilChanged, forSingleResult: false) { $0 }
    }

    /// Observes the first row.
    public func observationForFirst(distinctUntilChanged: Bool = false) -> ValueObservation<Row?> {
        observation(distinctUntilChanged: distinctUntilChanged, forSingleResult: true) { $0.first }
    }
}

extension FetchRequest where RowDecoder: FetchableRecord & Sendable {
    /// Observes all records.
    public func observationForAll(distinctUntilChanged: Bool = false) -> ValueObservation<[RowDecoder]> {
        observation(distinctUntilChanged: distinctUntilChanged, forSingleResult: false) { rows in
            try rows.map { try RowDecoder.decoded(from: $0) }
        }
    }

    /// Observes the first record.
    public func observationForFirst(distinctUntilChanged: Bool = false) -> ValueObservation<RowDecoder?> {
        observation(distinctUntilChanged: distinctUntilChanged, forSingleResult: true) { rows in
            try rows.first.map { try RowDecoder.decoded(from: $0) }
        }
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible {
    /// Observes the values of the first column.
    public func observationForAll(distinctUntilChanged: Bool = false) -> ValueObservation<[RowDecoder]> {
        observation(distinctUntilChanged: distinctUntilChanged, forSingleResult: false) { rows in
            try rows.map { try $0.decode(RowDecoder.self, atIndex: 0) }
        }
    }

    /// Observes the first value: nil when there is no row, or when it is NULL.
    public func observationForFirst(distinctUntilChanged: Bool = false) -> ValueObservation<RowDecoder?> {
        observation(distinctUntilChanged: distinctUntilChanged, forSingleResult: true) { rows in
            guard let row = rows.first, !row.hasNull(atIndex: 0) else { return nil }
            return try row.decode(RowDecoder.self, atIndex: 0)
        }
    }
}
