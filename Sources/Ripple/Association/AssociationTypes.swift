/// The association from a record to the record its foreign key refers to: a book
/// belongs to its author (`book.authorId` refers to `author.id`).
///
/// ```swift
/// struct Book: TableRecord {
///     static let author = belongsTo(Author.self)
/// }
/// ```
public struct BelongsToAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination
    public var _sqlAssociation: _SQLAssociation
}

/// The association from a record to the one record whose foreign key refers to it: a
/// country has one demographics record (`demographics.countryCode` refers to
/// `country.code`).
public struct HasOneAssociation<Origin, Destination>: AssociationToOne {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination
    public var _sqlAssociation: _SQLAssociation
}

/// The association from a record to the records whose foreign key refers to it: an
/// author has many books (`book.authorId` refers to `author.id`).
public struct HasManyAssociation<Origin, Destination>: AssociationToMany {
    public typealias OriginRowDecoder = Origin
    public typealias RowDecoder = Destination
    public var _sqlAssociation: _SQLAssociation
}

extension _SQLAssociation {
    init(
        origin: String, destination: String, key: String?, foreignKey: ForeignKey?, originIsChild: Bool, isToMany: Bool,
        selection: [any SQLSelectable] = [AllColumns()]
    ) {
        self.key = key.map(AssociationKey.fixed) ?? .inflected(destination)
        link = AssociationLink(
            childTable: originIsChild ? origin : destination,
            parentTable: originIsChild ? destination : origin,
            originIsChild: originIsChild, foreignKey: foreignKey)
        self.isToMany = isToMany
        self.destination = QueryInterfaceRequest(tableName: destination, selection: selection.map(\.sqlSelection))
    }
}

extension TableRecord {
    /// The association to the record this record's foreign key refers to.
    ///
    /// - Parameters:
    ///   - destination: The record type of the referred table.
    ///   - key: The key of the association (by default, the singular of the destination's
    ///     table name).
    ///   - foreignKey: The foreign key, when the schema does not declare exactly one from
    ///     this table to the destination.
    public static func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    )
        -> BelongsToAssociation<Self, Destination>
    {
        BelongsToAssociation(
            _sqlAssociation: _SQLAssociation(
                origin: databaseTableName, destination: Destination.databaseTableName,
                key: key, foreignKey: foreignKey, originIsChild: true, isToMany: false, selection: Destination.databaseSelection))
    }

    /// The association to the row of a table that this record's foreign key refers to.
    ///
    /// - Parameters:
    ///   - destination: The referred table.
    ///   - key: The key of the association (by default, the singular of the table name).
    ///   - foreignKey: The foreign key, when the schema does not declare exactly one.
    public static func belongsTo<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
    )
        -> BelongsToAssociation<Self, Destination>
    {
        BelongsToAssociation(
            _sqlAssociation: _SQLAssociation(
                origin: databaseTableName, destination: destination.tableName,
                key: key, foreignKey: foreignKey, originIsChild: true, isToMany: false))
    }

    /// The association to the one record whose foreign key refers to this record.
    ///
    /// - Parameters:
    ///   - destination: The record type of the referring table.
    ///   - key: The key of the association (by default, the singular of the destination's
    ///     table name).
    ///   - foreignKey: The foreign key, in the destination table, when the schema does
    ///     not declare exactly one from it to this table.
    public static func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    )
        -> HasOneAssociation<Self, Destination>
    {
        HasOneAssociation(
            _sqlAssociation: _SQLAssociation(
                origin: databaseTableName, destination: Destination.databaseTableName,
                key: key, foreignKey: foreignKey, originIsChild: false, isToMany: false, selection: Destination.databaseSelection))
    }

    /// The association to the one row of a table whose foreign key refers to this record.
    ///
    /// - Parameters:
    ///   - destination: The referring table.
    ///   - key: The key of the association (by default, the singular of the table name).
    ///   - foreignKey: The foreign key, in the destination table, when the schema does
    ///     not declare exactly one.
    public static func hasOne<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
    )
        -> HasOneAssociation<Self, Destination>
    {
        HasOneAssociation(
            _sqlAssociation: _SQLAssociation(
                origin: databaseTableName, destination: destination.tableName,
                key: key, foreignKey: foreignKey, originIsChild: false, isToMany: false))
    }

    /// The association to the records whose foreign key refers to this record.
    ///
    /// - Parameters:
    ///   - destination: The record type of the referring table.
    ///   - key: The key of the association (by default, the plural of the destination's
    ///     table name).
    ///   - foreignKey: The foreign key, in the destination table, when the schema does
    ///     not declare exactly one from it to this table.
    public static func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    )
        -> HasManyAssociation<Self, Destination>
    {
        HasManyAssociation(
            _sqlAssociation: _SQLAssociation(
                origin: databaseTableName, destination: Destination.databaseTableName,
                key: key, foreignKey: foreignKey, originIsChild: false, isToMany: true, selection: Destination.databaseSelection))
    }

    /// The association to the rows of a table whose foreign key refers to this record.
    ///
    /// - Parameters:
    ///   - destination: The referring table.
    ///   - key: The key of the association (by default, the plural of the table name).
    ///   - foreignKey: The foreign key, in the destination table, when the schema does
    ///     not declare exactly one.
    public static func hasMany<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
    )
        -> HasManyAssociation<Self, Destination>
    {
        HasManyAssociation(
            _sqlAssociation: _SQLAssociation(
                origin: databaseTableName, destination: destination.tableName,
                key: key, foreignKey: foreignKey, originIsChild: false, isToMany: true))
    }
}
