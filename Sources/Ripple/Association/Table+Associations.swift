// Associations between tables without record types: `Table("book").belongsTo(Table("author"))`.

extension Table {
    /// The association to the row that this table's foreign key refers to.
    ///
    /// - Parameters:
    ///   - destination: The referred table.
    ///   - key: The key of the association (by default, the singular of the table name).
    ///   - foreignKey: The foreign key, when the schema does not declare exactly one.
    public func belongsTo<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
    )
        -> BelongsToAssociation<RowDecoder, Destination>
    {
        BelongsToAssociation(
            _sqlAssociation: _SQLAssociation(
                origin: tableName, destination: destination.tableName,
                key: key, foreignKey: foreignKey, originIsChild: true, isToMany: false))
    }

    /// The association to the record that this table's foreign key refers to.
    ///
    /// - Parameters:
    ///   - destination: The record type of the referred table.
    ///   - key: The key of the association (by default, the singular of the table name).
    ///   - foreignKey: The foreign key, when the schema does not declare exactly one.
    public func belongsTo<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    )
        -> BelongsToAssociation<RowDecoder, Destination>
    {
        BelongsToAssociation(
            _sqlAssociation: _SQLAssociation(
                origin: tableName, destination: Destination.databaseTableName,
                key: key, foreignKey: foreignKey, originIsChild: true, isToMany: false, selection: Destination.databaseSelection))
    }

    /// The association to the one row whose foreign key refers to a row of this table.
    ///
    /// - Parameters:
    ///   - destination: The referring table.
    ///   - key: The key of the association (by default, the singular of the table name).
    ///   - foreignKey: The foreign key, in the destination table.
    public func hasOne<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
    )
        -> HasOneAssociation<RowDecoder, Destination>
    {
        HasOneAssociation(
            _sqlAssociation: _SQLAssociation(
                origin: tableName, destination: destination.tableName,
                key: key, foreignKey: foreignKey, originIsChild: false, isToMany: false))
    }

    /// The association to the one record whose foreign key refers to a row of this table.
    ///
    /// - Parameters:
    ///   - destination: The record type of the referring table.
    ///   - key: The key of the association (by default, the singular of the table name).
    ///   - foreignKey: The foreign key, in the destination table.
    public func hasOne<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    )
        -> HasOneAssociation<RowDecoder, Destination>
    {
        HasOneAssociation(
            _sqlAssociation: _SQLAssociation(
                origin: tableName, destination: Destination.databaseTableName,
                key: key, foreignKey: foreignKey, originIsChild: false, isToMany: false, selection: Destination.databaseSelection))
    }

    /// The association to the rows whose foreign key refers to a row of this table.
    ///
    /// - Parameters:
    ///   - destination: The referring table.
    ///   - key: The key of the association (by default, the plural of the table name).
    ///   - foreignKey: The foreign key, in the destination table.
    public func hasMany<Destination>(
        _ destination: Table<Destination>, key: String? = nil, using foreignKey: ForeignKey? = nil
    )
        -> HasManyAssociation<RowDecoder, Destination>
    {
        HasManyAssociation(
            _sqlAssociation: _SQLAssociation(
                origin: tableName, destination: destination.tableName,
                key: key, foreignKey: foreignKey, originIsChild: false, isToMany: true))
    }

    /// The association to the records whose foreign key refers to a row of this table.
    ///
    /// - Parameters:
    ///   - destination: The record type of the referring table.
    ///   - key: The key of the association (by default, the plural of the table name).
    ///   - foreignKey: The foreign key, in the destination table.
    public func hasMany<Destination: TableRecord>(
        _ destination: Destination.Type, key: String? = nil, using foreignKey: ForeignKey? = nil
    )
        -> HasManyAssociation<RowDecoder, Destination>
    {
        HasManyAssociation(
            _sqlAssociation: _SQLAssociation(
                origin: tableName, destination: Destination.databaseTableName,
                key: key, foreignKey: foreignKey, originIsChild: false, isToMany: true, selection: Destination.databaseSelection))
    }

    /// See `QueryInterfaceRequest.including(required:)`.
    ///
    /// - Parameter association: An association of this table.
    public func including<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().including(required: association)
    }

    /// See `QueryInterfaceRequest.including(optional:)`.
    ///
    /// - Parameter association: An association of this table.
    public func including<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().including(optional: association)
    }

    /// See `QueryInterfaceRequest.including(all:)`.
    ///
    /// - Parameter association: A to-many association of this table.
    public func including<A: AssociationToMany>(all association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().including(all: association)
    }

    /// See `QueryInterfaceRequest.joining(required:)`.
    ///
    /// - Parameter association: An association of this table.
    public func joining<A: Association>(required association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().joining(required: association)
    }

    /// See `QueryInterfaceRequest.joining(optional:)`.
    ///
    /// - Parameter association: An association of this table.
    public func joining<A: Association>(optional association: A) -> QueryInterfaceRequest<RowDecoder> where A.OriginRowDecoder == RowDecoder {
        all().joining(optional: association)
    }

    /// See `QueryInterfaceRequest.annotated(with:)`.
    ///
    /// - Parameter aggregates: Aggregates of associations of this table.
    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: aggregates)
    }

    /// See `QueryInterfaceRequest.having(_:)`.
    ///
    /// - Parameter predicate: A condition on aggregates of associations of this table.
    public func having(_ predicate: AssociationAggregate<RowDecoder>) -> QueryInterfaceRequest<RowDecoder> {
        all().having(predicate)
    }

    /// A request of all rows, the table named by `alias` in the SQL.
    ///
    /// - Parameter alias: The alias.
    public func aliased<T>(_ alias: TableAlias<T>) -> QueryInterfaceRequest<RowDecoder> {
        all().aliased(alias)
    }
}
