/// The association to the records that another association leads to, through a first
/// one: a country has many books through its authors.
///
/// ```swift
/// struct Country: TableRecord {
///     static let authors = hasMany(Author.self)
///     static let books = hasMany(Book.self, through: authors, using: Author.books)
/// }
/// // SELECT "country".*, "book".* FROM "country"
/// // JOIN "author" ON "author"."countryCode" = "country"."code"
/// // JOIN "book" ON "book"."authorId" = "author"."id"
/// let request = Country.including(required: Country.books)
/// ```
///
/// Fetched rows hold the records in the scope of the pivot (`row.scopes["author"]?.scopes["book"]`);
/// `Decodable` records find them by key at any depth.
public struct HasManyThroughAssociation<Origin, Destination>: AssociationToMany {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination
    public var _sqlAssociation: _SQLAssociation
}

/// The association to the one record that another to-one association leads to, through
/// a first one: a book has one country through its author.
public struct HasOneThroughAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination
    public var _sqlAssociation: _SQLAssociation
}

extension _SQLAssociation {
    /// The association from the origin of `pivot` to the destination of `target`.
    init(through pivot: _SQLAssociation, using target: _SQLAssociation, key: String?, isToMany: Bool) {
        self = target.withoutPivots
        pivots = pivot.pivots + [pivot.withoutPivots] + target.pivots
        if let key { self.key = .fixed(key) }
        self.isToMany = isToMany
    }

    var withoutPivots: _SQLAssociation {
        var association = self
        association.pivots = []
        return association
    }

    /// The join of the association into a request: through its pivots, each joined
    /// without selection, the destination nested in the last one. A prefetched
    /// association keeps its pivots: its own query joins them (see
    /// `AssociationPrefetcher`).
    func join(_ kind: AssociationJoin.Kind, _ selection: AssociationJoin.Selection) -> AssociationJoin {
        guard kind != .all else { return AssociationJoin(kind: kind, selection: selection, association: self) }
        var join = AssociationJoin(kind: kind, selection: selection, association: withoutPivots)
        join.annotationLevels = pivots.count
        for pivot in pivots.reversed() {
            var pivot = pivot
            pivot.destination.addJoin(join)
            join = AssociationJoin(kind: kind, selection: .none, association: pivot)
        }
        return join
    }

    /// The steps from the origin to the destination.
    var steps: [_SQLAssociation] { pivots + [withoutPivots] }

    /// The request of the destination table, joined back to the table of the first step
    /// (the origin's nearest): the request of the destination rows of given origin rows.
    /// `restrict` receives the request of that first table (filter it on the origin's
    /// key), and the origin's columns paired with its own.
    func inverseRequest(
        _ restrict: (inout QueryInterfaceRequest<Row>, AssociationLink) -> Void
    ) -> QueryInterfaceRequest<Row> {
        let steps = self.steps
        guard steps.count > 1 else {
            var request = destination
            restrict(&request, link)
            return request
        }
        // The first pivot's table, restricted, then each next pivot joined back to it.
        var inner = steps[0].destination
        restrict(&inner, steps[0].link)
        for index in 1..<(steps.count - 1) {
            var next = steps[index].destination
            next.joins.append(AssociationJoin(kind: .required, selection: .none, association: steps[index].inverse(to: inner)))
            inner = next
        }
        var request = destination
        // (Appended, not merged with a join of the same key that the destination has: the
        // way back is a join of its own, as in GRDB.)
        request.joins.append(AssociationJoin(kind: .required, selection: .none, association: steps[steps.count - 1].inverse(to: inner)))
        return request
    }

    /// The association from this step's destination back to its origin, whose request is
    /// `origin`.
    private func inverse(to origin: QueryInterfaceRequest<Row>) -> _SQLAssociation {
        var inverse = self
        inverse.link.originIsChild.toggle()
        inverse.key = .fixed(origin.tableName)
        inverse.isToMany = false
        inverse.destination = origin
        inverse.pivots = []
        return inverse
    }
}

extension TableRecord {
    /// The association to the records that `target` leads to from the destination of
    /// `pivot`.
    ///
    /// - Parameters:
    ///   - destination: The record type of the destination.
    ///   - pivot: An association of this record type.
    ///   - target: An association of the pivot's record type, to the destination.
    ///   - key: The key of the association (by default, the target's).
    public static func hasMany<Pivot: Association, Target: Association>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
    )
        -> HasManyThroughAssociation<Self, Target.RowDecoder>
    where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder {
        HasManyThroughAssociation(
            _sqlAssociation: _SQLAssociation(
                through: pivot._sqlAssociation, using: target._sqlAssociation, key: key, isToMany: true))
    }

    /// The association to the one record that `target` leads to from the one record of
    /// `pivot`.
    ///
    /// - Parameters:
    ///   - destination: The record type of the destination.
    ///   - pivot: A to-one association of this record type.
    ///   - target: A to-one association of the pivot's record type, to the destination.
    ///   - key: The key of the association (by default, the target's).
    public static func hasOne<Pivot: AssociationToOne, Target: AssociationToOne>(
        _ destination: Target.RowDecoder.Type, through pivot: Pivot, using target: Target, key: String? = nil
    )
        -> HasOneThroughAssociation<Self, Target.RowDecoder>
    where Pivot.OriginRowDecoder == Self, Pivot.RowDecoder == Target.OriginRowDecoder {
        HasOneThroughAssociation(
            _sqlAssociation: _SQLAssociation(
                through: pivot._sqlAssociation, using: target._sqlAssociation, key: key, isToMany: false))
    }
}
