// Joining associations to requests: `Book.including(required: Book.author)`.

extension QueryInterfaceRequest {
    /// Includes an association whose rows must exist: rows without one are not fetched.
    /// Fetched rows hold the associated columns in a scope named after its key.
    ///
    /// ```swift
    /// // SELECT "book".*, "author".* FROM "book"
    /// // JOIN "author" ON "author"."id" = "book"."authorId"
    /// let request = Book.including(required: Book.author)
    /// ```
    ///
    /// - Parameter association: An association of the request's records.
    public func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        joined(association._sqlAssociation, .required, .scoped)
    }

    /// Includes all the records of a to-many association, fetched by one more query for
    /// all the request's rows (not one per row). Fetched rows hold them in
    /// `prefetchedRows`, under the association's key; `Decodable` records decode an array
    /// property of that name from them.
    ///
    /// ```swift
    /// struct AuthorInfo: FetchableRecord, Decodable {
    ///     var author: Author
    ///     var books: [Book]
    /// }
    /// let infos = try Author.including(all: Author.books).asRequest(of: AuthorInfo.self).fetchAll(db)
    /// ```
    ///
    /// Such a request has no cursor: `fetchCursor` throws; use `fetchAll` or `fetchOne`.
    ///
    /// - Parameter association: A to-many association of the request's records.
    public func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        joined(association._sqlAssociation, .all, .scoped)
    }

    /// Includes an association whose rows may be missing (`LEFT JOIN`): the scope of a
    /// row without one holds NULLs, and a `Decodable` record's optional property is nil.
    ///
    /// - Parameter association: An association of the request's records.
    public func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        joined(association._sqlAssociation, .optional, .scoped)
    }

    /// Joins an association whose rows must exist, without selecting its columns: to
    /// filter or order on them.
    ///
    /// - Parameter association: An association of the request's records.
    public func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        joined(association._sqlAssociation, .required, .none)
    }

    /// Joins an association whose rows may be missing (`LEFT JOIN`), without selecting
    /// its columns.
    ///
    /// - Parameter association: An association of the request's records.
    public func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        joined(association._sqlAssociation, .optional, .none)
    }

    /// Selects the columns of an association whose rows must exist, in the fetched rows
    /// themselves rather than in a scope: `annotated(withRequired: Player.team.select(Column("name").forKey("teamName")))`.
    ///
    /// - Parameter association: An association of the request's records.
    public func annotated<A: Association>(withRequired association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        joined(association._sqlAssociation, .required, .annotation)
    }

    /// Selects the columns of an association whose rows may be missing, in the fetched
    /// rows themselves.
    ///
    /// - Parameter association: An association of the request's records.
    public func annotated<A: Association>(withOptional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        joined(association._sqlAssociation, .optional, .annotation)
    }

    /// The request, its table named by `alias` in the SQL, so that other parts of the
    /// request (its associations) can refer to its columns.
    ///
    /// - Parameter alias: The alias.
    public func aliased<T>(_ alias: TableAlias<T>) -> Self {
        var request = self
        request.alias = alias.identity
        return request
    }
}

extension TableRecord {
    /// See `QueryInterfaceRequest.including(required:)`.
    ///
    /// - Parameter association: An association of this record type.
    public static func including<A: Association>(required association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().including(required: association)
    }

    /// See `QueryInterfaceRequest.including(all:)`.
    ///
    /// - Parameter association: A to-many association of this record type.
    public static func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().including(all: association)
    }

    /// See `QueryInterfaceRequest.including(optional:)`.
    ///
    /// - Parameter association: An association of this record type.
    public static func including<A: Association>(optional association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().including(optional: association)
    }

    /// See `QueryInterfaceRequest.joining(required:)`.
    ///
    /// - Parameter association: An association of this record type.
    public static func joining<A: Association>(required association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().joining(required: association)
    }

    /// See `QueryInterfaceRequest.joining(optional:)`.
    ///
    /// - Parameter association: An association of this record type.
    public static func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().joining(optional: association)
    }

    /// See `QueryInterfaceRequest.annotated(withRequired:)`.
    ///
    /// - Parameter association: An association of this record type.
    public static func annotated<A: Association>(withRequired association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().annotated(withRequired: association)
    }

    /// See `QueryInterfaceRequest.annotated(withOptional:)`.
    ///
    /// - Parameter association: An association of this record type.
    public static func annotated<A: Association>(withOptional association: A) -> QueryInterfaceRequest<Self> where A.OriginRowDecoder == Self {
        all().annotated(withOptional: association)
    }

    /// A request of all records, the table named by `alias` in the SQL.
    ///
    /// - Parameter alias: The alias.
    public static func aliased<T>(_ alias: TableAlias<T>) -> QueryInterfaceRequest<Self> {
        all().aliased(alias)
    }
}

extension EncodableRecord where Self: TableRecord {
    /// The request of the records this record is associated to: its author, its books.
    ///
    /// ```swift
    /// let author = try book.request(for: Book.author).fetchOne(db)
    /// let books = try author.request(for: Author.books).fetchAll(db)
    /// ```
    ///
    /// A record whose key is NULL has no associated record: the request fetches nothing.
    ///
    /// - Parameter association: An association of this record type.
    public func request<A: Association>(for association: A) -> QueryInterfaceRequest<A.RowDecoder> where A.OriginRowDecoder == Self {
        // Encoded now; an encoding error is thrown when the request runs.
        let encoded = Result { try databaseDictionary }
        // The record's key comes first in a direct association's WHERE clause, and after
        // the pivot's own filters in a `through` association's ON clause, as GRDB writes them.
        let keyPosition = association._sqlAssociation.pivots.isEmpty ? 0 : nil
        let request = association._sqlAssociation.inverseRequest { firstTable, link in
            firstTable.filters.insert(
                .whenConnected { db in
                    let values = try encoded.get()
                    var terms: [SQLExpression] = []
                    for pair in try link.columnPairs(db) {
                        let value = values.first { $0.key.lowercased() == pair.origin.lowercased() }?.value ?? .null
                        if value.isNull { return SQLExpression(sql: "0") }
                        terms.append(Column(pair.destination) == value)
                    }
                    return QueryInterfaceRequest<Row>.conjunction(terms)
                }, at: keyPosition ?? firstTable.filters.count)
        }
        return request.asRequest(of: A.RowDecoder.self)
    }
}
