/// A link from one record type to another, declared once on the record and used in
/// requests: `Book.including(required: Book.author)`.
///
/// Associations are `BelongsToAssociation`, `HasOneAssociation` and `HasManyAssociation`,
/// made by `belongsTo`, `hasOne` and `hasMany` of `TableRecord`. An association is also a
/// request on its destination table: filter it, order it, select from it, join it to
/// other associations, and the request it is included in reads what it says.
///
/// ```swift
/// struct Book: TableRecord, FetchableRecord, Decodable {
///     static let author = belongsTo(Author.self)
/// }
/// struct BookInfo: FetchableRecord, Decodable {
///     var book: Book
///     var author: Author
/// }
/// let infos = try Book
///     .including(required: Book.author.filter(Column("country") == "FR"))
///     .asRequest(of: BookInfo.self)
///     .fetchAll(db)
/// ```
public protocol Association<OriginRowDecoder, RowDecoder>: Sendable {
    /// The record type the association starts from.
    associatedtype OriginRowDecoder
    /// The record type the association leads to.
    associatedtype RowDecoder

    /// What requests know of the association (opaque).
    var _sqlAssociation: _SQLAssociation { get set }
}

/// An association that leads to one record at most (`belongsTo`, `hasOne`).
public protocol AssociationToOne: Association {}

/// An association that leads to any number of records (`hasMany`).
public protocol AssociationToMany: Association {}

/// What requests know of an association: its key, how its tables are linked, and the
/// request on its destination table.
public struct _SQLAssociation: Sendable {
    var key: AssociationKey
    var link: AssociationLink
    var isToMany: Bool
    /// The destination table, with what the association adds: filters, orderings,
    /// selection, alias, and the associations joined to it.
    var destination: QueryInterfaceRequest<Row>
    /// For an association through others (`hasMany(_:through:using:)`), the steps from
    /// the origin to the table before the destination, in order; empty otherwise.
    var pivots: [_SQLAssociation] = []

}

/// The key of an association: the destination table's name, inflected, unless the
/// declaration or `forKey(_:)` gives one.
enum AssociationKey: Sendable, Equatable {
    /// Singular for a to-one association, plural for a to-many one: `"teams"` is the key
    /// `"team"` of `belongsTo(Team.self)`.
    case inflected(String)
    /// As given, in the association's own number: a to-many association's key is
    /// plural, and singularized where one row is meant (`hasMany(Child.self, key:
    /// "puppies")` joined with `including(required:)` is the scope `"puppy"`).
    case fixed(String)

    func name(singular: Bool, isToMany: Bool) -> String {
        switch self {
        case .inflected(let name): return singular ? name.singularized : name.pluralized
        case .fixed(let name):
            if isToMany { return singular ? name.singularized : name }
            return singular ? name : name.pluralized
        }
    }
}

/// An association joined to a request.
struct AssociationJoin: Sendable {
    /// `JOIN`, `LEFT JOIN`, or a query of its own after the request's rows are fetched
    /// (`including(all:)`).
    enum Kind: Sendable { case required, optional, all }
    /// What the request selects of the association: its columns in a scope (`including`),
    /// its columns in the request's own row (`annotated(withRequired:)`), or nothing
    /// (`joining`).
    enum Selection: Sendable, Comparable { case none, annotation, scoped }

    var kind: Kind
    var selection: Selection
    var association: _SQLAssociation
    /// When the association was annotated: annotations are selected in the order of the
    /// `annotated(with…:)` calls, after the columns of the part they annotate and before
    /// its included associations (`SELECT "a".*, "d".*, "b".*`).
    var annotationRank = 0
    /// The pivots between the annotated request and an annotation through them: the
    /// columns belong to the request whose `annotated(with…:)` was called, even when a
    /// pivot is also included.
    var annotationLevels = 0

    init(kind: Kind, selection: Selection, association: _SQLAssociation) {
        self.kind = kind
        self.selection = selection
        self.association = association
        if selection == .annotation { annotationRank = AnnotationRanks.next() }
    }

    /// The key of the join: singular for a joined association, whatever its kind (the
    /// one child of a `hasMany` joined with `including(required:)` is `"child"`), plural
    /// for a prefetched one.
    var scopeName: String { association.key.name(singular: kind != .all, isToMany: association.isToMany) }

    /// Other aliases of the joined table: those of the joins merged into this one.
    var mergedAliases: [TableAliasIdentity] = []

    /// This join and another one of the same key, as one: required if one is, selected
    /// if one is, with the filters, orderings and joins of both.
    func merged(with other: AssociationJoin) -> AssociationJoin {
        var result = self
        if other.kind == .required { result.kind = .required }
        result.selection = max(selection, other.selection)
        if other.selection == .annotation, selection != .annotation {
            result.annotationRank = other.annotationRank
            result.annotationLevels = other.annotationLevels
        }
        var destination = association.destination
        destination.filters += other.association.destination.filters
        // The orderings of the last one win, as the last `order(_:)` of a request does.
        if !other.association.destination.orderings.isEmpty { destination.orderings = other.association.destination.orderings }
        // The selection of the last one that selects wins: `including(required:
        // A.b.select(...)).including(required: A.b)` selects `"b".*`.
        if other.selection >= selection, other.selection != .none { destination.selection = other.association.destination.selection }
        if let otherAlias = other.association.destination.alias {
            if let alias = destination.alias, alias !== otherAlias {
                // A named alias names the table in the SQL: it wins over an unnamed one.
                if alias.userName == nil, otherAlias.userName != nil {
                    destination.alias = otherAlias
                    result.mergedAliases.append(alias)
                } else {
                    result.mergedAliases.append(otherAlias)
                }
            } else {
                destination.alias = otherAlias
            }
        }
        result.mergedAliases += other.mergedAliases
        for join in other.association.destination.joins { destination.addJoin(join) }
        result.association.destination = destination
        return result
    }
}

/// The order of `annotated(with…:)` calls, process-wide: only the order of the calls that
/// built one request matters.
enum AnnotationRanks {
    private static let last = LockedState(0)

    static func next() -> Int {
        last.withLock {
            $0 += 1
            return $0
        }
    }
}

extension QueryInterfaceRequest {
    /// Joins `join`, merged with a join of the same key if there is one.
    mutating func addJoin(_ join: AssociationJoin) {
        if let index = joins.firstIndex(where: { $0.scopeName == join.scopeName && ($0.kind == .all) == (join.kind == .all) }) {
            joins[index] = joins[index].merged(with: join)
        } else {
            joins.append(join)
        }
    }

    func joined(_ association: _SQLAssociation, _ kind: AssociationJoin.Kind, _ selection: AssociationJoin.Selection) -> Self {
        var request = self
        request.addJoin(association.join(kind, selection))
        return request
    }
}
