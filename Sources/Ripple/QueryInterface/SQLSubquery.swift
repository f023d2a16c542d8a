/// A type that can be used as an SQL subquery: every fetch request.
///
/// A request is an expression whose value is its first column of its first row, and it
/// can be tested for rows (`exists()`) or for a value (`contains(_:)`):
///
/// ```swift
/// // SELECT * FROM "player" WHERE "score" = (SELECT MAX("score") FROM "player")
/// let bestScore = Player.select(max(Column("score")))
/// let bestPlayers = Player.filter(Column("score") == bestScore)
///
/// // SELECT * FROM "team" WHERE EXISTS (SELECT * FROM "player" WHERE "teamId" = "team"."id")
/// let team = TableAlias()
/// let teamsWithPlayers = Team.aliased(team).filter(Player.filter(Column("teamId") == team[Column("id")]).exists())
/// ```
///
/// A subquery reads the aliases of the requests that embed it (`team` above). Its tables
/// are part of the region that observations of the request track.
public protocol SQLSubqueryable: SQLSpecificExpressible {
    /// The subquery.
    var sqlSubquery: SQLSubquery { get }
}

/// A subquery (see ``SQLSubqueryable``).
public struct SQLSubquery: Sendable {
    /// Writes the SQL, given the connection (nil in an SQL literal, which is written
    /// without one) and the SQL names of the outer aliases.
    private let makeSQL: @Sendable (Database?, _ outerAliasNames: [ObjectIdentifier: String]) throws -> SQL

    /// A subquery of raw SQL.
    init(literal: SQL) {
        makeSQL = { _, _ in literal }
    }

    /// A subquery written by `makeSQL` when the request that embeds it is.
    init(_ makeSQL: @escaping @Sendable (Database?, _ outerAliasNames: [ObjectIdentifier: String]) throws -> SQL) {
        self.makeSQL = makeSQL
    }

    func sql(_ db: Database?, outerAliasNames: [ObjectIdentifier: String]) throws -> SQL {
        try makeSQL(db, outerAliasNames)
    }
}

extension SQLSubquery: SQLSubqueryable {
    public var sqlSubquery: SQLSubquery { self }
}

extension SQLSubqueryable {
    /// The subquery as a value: `(SELECT ...)`.
    public var sqlExpression: SQLExpression { SQLExpression(.subquery(sqlSubquery)) }

    /// `element IN (SELECT ...)`: whether the subquery's first column holds `element`.
    ///
    /// ```swift
    /// // 1000 IN (SELECT "score" FROM "player")
    /// let condition = Player.select(Column("score")).contains(1000)
    /// ```
    ///
    /// - Parameter element: The tested value.
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        SQLExpression(.inSubquery(element.sqlExpression.node, sqlSubquery, negated: false))
    }

    /// `EXISTS (SELECT ...)`: whether the subquery has a row. Negated with `!`:
    /// `NOT EXISTS (SELECT ...)`.
    ///
    /// ```swift
    /// // EXISTS (SELECT * FROM "player" WHERE "name" = 'Arthur')
    /// let condition = Player.filter(Column("name") == "Arthur").exists()
    /// ```
    public func exists() -> SQLExpression {
        SQLExpression(.existsSubquery(sqlSubquery, negated: false))
    }
}

extension FetchRequest {
    /// The request as a subquery: the SQL of its statement.
    public var sqlSubquery: SQLSubquery {
        SQLSubquery { db, _ in
            guard let db else {
                throw DatabaseError(message: "this request is a subquery of another request only: in an SQL literal, interpolate an SQLRequest")
            }
            let prepared = try makePreparedRequest(db, forSingleResult: false)
            return SQL(sql: prepared.statement.sql, arguments: prepared.arguments)
        }
    }
}

extension SQLRequest {
    public var sqlSubquery: SQLSubquery { SQLSubquery(literal: SQL(sql: sql, arguments: arguments)) }
}

extension QueryInterfaceRequest {
    public var sqlSubquery: SQLSubquery {
        SQLSubquery { db, outerAliasNames in try makeSQL(db, outerAliasNames: outerAliasNames) }
    }
}
