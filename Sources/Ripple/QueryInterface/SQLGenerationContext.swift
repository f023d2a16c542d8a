/// Collects SQL arguments while SQL is generated.
struct SQLGenerationContext {
    var arguments: [DatabaseValue] = []
    /// Whether values are written in the SQL as literals, instead of bound: schema
    /// statements (`CHECK`, `DEFAULT`, generated columns, partial indexes) take no
    /// arguments.
    var inlinesValues = false
    /// The quoted SQL name of the table whose columns are written: set while the parts of
    /// a request with joins are written, so that `Column("name")` is `"player"."name"`.
    var qualifier: String?
    /// The SQL names of the table aliases of the request being written.
    var aliasNames: [ObjectIdentifier: String] = [:]
    /// An alias was used whose table is not in the request (see `TableAlias`).
    var undefinedAlias: String?
    /// The tables of the aliases, and the connection, for `TableAlias.exists`, which
    /// reads the key of the aliased table.
    var aliasTables: [ObjectIdentifier: String] = [:]
    var database: Database?
    /// The SQL names of the aliases of the requests that embed this one as a subquery:
    /// `EXISTS (SELECT * FROM "player" WHERE "teamId" = "team"."id")`.
    var outerAliasNames: [ObjectIdentifier: String] = [:]
    /// A subquery could not be written (see ``SQLSubquery``): the request fails with it.
    var subqueryError: (any Error)?

    /// The quoted SQL name of `alias` in the request being written.
    mutating func sqlName(of alias: TableAliasIdentity) -> String {
        if let name = aliasNames[ObjectIdentifier(alias)] { return name }
        if let name = outerAliasNames[ObjectIdentifier(alias)] { return name }
        if aliasNames.isEmpty, let name = alias.userName { return name.quotedDatabaseIdentifier }
        undefinedAlias = alias.userName ?? "an unnamed TableAlias"
        return (alias.userName ?? "undefined").quotedDatabaseIdentifier
    }

    /// The columns that are not NULL when the aliased table has a row: its rowid, or the
    /// primary key of a `WITHOUT ROWID` table.
    func existenceColumns(of alias: TableAliasIdentity) -> [String] {
        guard let table = aliasTables[ObjectIdentifier(alias)], let database else { return ["rowid"] }
        if (try? database.viewExists(table)) == true {
            // A view has no rowid: its primary key when the configuration tells one, else
            // all its columns.
            if let primaryKey = try? database.primaryKey(table), primaryKey.rowIDName == nil { return primaryKey.columns }
            return (try? database.columns(in: table).map(\.name)) ?? ["rowid"]
        }
        guard let primaryKey = try? database.primaryKey(table) else { return ["rowid"] }
        if let rowIDColumn = primaryKey.rowIDName { return [rowIDColumn] }
        return primaryKey.isWithoutRowID ? primaryKey.columns : ["rowid"]
    }

    /// The SQL of a subquery, its arguments bound here; the subquery sees the aliases of
    /// this request. A failure is kept in `subqueryError`.
    mutating func sql(of subquery: SQLSubquery) -> String {
        do {
            var names = outerAliasNames
            for (alias, name) in aliasNames {
                // (An empty name: the alias names the only table, unqualified here but not
                // in the subquery.)
                names[alias] = name.isEmpty ? aliasTables[alias]?.quotedDatabaseIdentifier ?? name : name
            }
            let literal = try subquery.sql(database, outerAliasNames: names)
            return bind(sql: literal.sql, values: literal.arguments.values)
        } catch {
            if subqueryError == nil { subqueryError = error }
            // SQL written without a connection (an SQL literal) does not throw: a statement
            // of it fails to compile, and SQLite's error names the problem.
            return "SELECT * FROM " + ("ripple: " + ((error as? DatabaseError)?.message ?? "\(error)")).quotedDatabaseIdentifier
        }
    }

    /// Throws what went wrong while writing: a subquery that failed.
    func checkSubqueries() throws {
        if let subqueryError { throw subqueryError }
    }

    mutating func bind(_ value: DatabaseValue) -> String {
        if inlinesValues { return value.sqlLiteral }
        arguments.append(value)
        return "?"
    }

    /// Raw SQL and the values of its `?` parameters: bound, or written in the SQL when
    /// values are inlined.
    mutating func bind(sql: String, values: [DatabaseValue]) -> String {
        if inlinesValues, let inlined = Self.inlining(sql, values: values) { return inlined }
        arguments.append(contentsOf: values)
        return sql
    }

    /// `sql` with its `?` parameters replaced by the literals of `values`, outside of
    /// string literals and quoted identifiers; nil when there are more parameters than
    /// values.
    static func inlining(_ sql: String, values: [DatabaseValue]) -> String? {
        guard !values.isEmpty else { return sql }
        var result = ""
        var index = 0
        var quotes = SQLQuoteTracker()
        for character in sql {
            if quotes.isQuoted(character) {
                result.append(character)
            } else if character == "?" {
                guard index < values.count else { return nil }
                result += values[index].sqlLiteral
                index += 1
            } else {
                result.append(character)
            }
        }
        return result
    }
}
