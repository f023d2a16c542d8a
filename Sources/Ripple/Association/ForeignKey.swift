/// The columns that link two tables of an association, when the schema does not say it,
/// or says it more than once:
///
/// ```swift
/// struct Book: TableRecord {
///     static let author = belongsTo(Person.self, using: ForeignKey(["authorId"]))
///     static let translator = belongsTo(Person.self, using: ForeignKey(["translatorId"]))
/// }
/// ```
///
/// The origin columns are in the table that holds the foreign key (the book's, for both
/// `belongsTo` and, seen from the person, `hasMany`). Without destination columns, the
/// key refers to the primary key of the other table.
public struct ForeignKey: Sendable, Equatable {
    /// The columns of the table that holds the key.
    public let originColumns: [String]
    /// The columns they refer to; nil for the primary key.
    public let destinationColumns: [String]?

    /// A foreign key of `originColumns`, referring to `destinationColumns` (or to the
    /// primary key of the other table).
    ///
    /// - Parameters:
    ///   - originColumns: The columns of the table that holds the key.
    ///   - destinationColumns: The columns they refer to; nil for the primary key.
    public init(_ originColumns: [String], to destinationColumns: [String]? = nil) {
        self.originColumns = originColumns
        self.destinationColumns = destinationColumns
    }

    /// A foreign key of `originColumns`, referring to `destinationColumns` (or to the
    /// primary key of the other table).
    ///
    /// - Parameters:
    ///   - originColumns: The columns of the table that holds the key.
    ///   - destinationColumns: The columns they refer to; nil for the primary key.
    public init(_ originColumns: [any ColumnExpression], to destinationColumns: [any ColumnExpression]? = nil) {
        self.init(originColumns.map(\.name), to: destinationColumns.map { columns in columns.map(\.name) })
    }
}

/// How an association's two tables are linked: which table holds the foreign key, and
/// the key when the declaration gives it. The column pairs are resolved against the
/// schema when the request runs.
struct AssociationLink: Sendable {
    /// The table that holds the foreign key.
    var childTable: String
    /// The table it refers to.
    var parentTable: String
    /// Whether the association's origin holds the key (`belongsTo`).
    var originIsChild: Bool
    var foreignKey: ForeignKey?

    /// The (origin column, destination column) pairs.
    func columnPairs(_ db: Database) throws -> [(origin: String, destination: String)] {
        let pairs = try childParentPairs(db)
        return pairs.map { pair -> (origin: String, destination: String) in
            originIsChild ? (origin: pair.child, destination: pair.parent) : (origin: pair.parent, destination: pair.child)
        }
    }

    private func childParentPairs(_ db: Database) throws -> [(child: String, parent: String)] {
        if let foreignKey, let destinationColumns = foreignKey.destinationColumns {
            try checkCount(foreignKey.originColumns, destinationColumns)
            return zip(foreignKey.originColumns, destinationColumns).map { (child: $0, parent: $1) }
        }
        let givenColumns = foreignKey?.originColumns.map { $0.lowercased() }
        // A view declares no foreign key: a given one refers to the primary key.
        let declared = try foreignKey != nil && db.viewExists(childTable) ? [] : db.foreignKeys(on: childTable)
        let candidates = declared.filter { (info: ForeignKeyInfo) -> Bool in
            guard info.destinationTable.lowercased() == parentTable.lowercased() else { return false }
            guard let givenColumns else { return true }
            return info.originColumns.map { $0.lowercased() } == givenColumns
        }
        if candidates.count == 1 {
            return candidates[0].mapping.map { (child: $0.origin, parent: $0.destination) }
        }
        if let foreignKey {
            // A key the schema does not declare: it refers to the primary key.
            let primaryKey = try db.primaryKey(parentTable)
            let parentColumns = primaryKey.rowIDName.map { _ in primaryKey.columns.isEmpty ? ["rowid"] : primaryKey.columns } ?? primaryKey.columns
            try checkCount(foreignKey.originColumns, parentColumns)
            return zip(foreignKey.originColumns, parentColumns).map { (child: $0, parent: $1) }
        }
        if candidates.isEmpty {
            throw DatabaseError(
                message: """
                    could not infer the foreign key from \(childTable) to \(parentTable): \
                    declare one in the schema, or give it to the association (`using: ForeignKey([...])`)
                    """)
        }
        throw DatabaseError(
            message: """
                ambiguous foreign key from \(childTable) to \(parentTable) (\(candidates.count) of them): \
                give the one to use to the association (`using: ForeignKey([...])`)
                """)
    }

    private func checkCount(_ childColumns: [String], _ parentColumns: [String]) throws {
        guard childColumns.count == parentColumns.count, !childColumns.isEmpty else {
            throw DatabaseError(
                message: """
                    the foreign key from \(childTable) to \(parentTable) has \(childColumns.count) column(s) \
                    for \(parentColumns.count) in the referred key: give as many of each
                    """)
        }
    }
}
