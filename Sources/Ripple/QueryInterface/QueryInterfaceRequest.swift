/// A request built from Swift: `Player.filter(Column("score") > 1000).order(Column("name"))`.
///
/// Each method returns a new request; nothing touches the database until a fetch. The SQL
/// is stable and readable:
///
/// ```swift
/// Player.filter(key: 1)                    // SELECT * FROM "player" WHERE "id" = 1
/// Player.order(Column("score").desc).limit(10)
///                                          // SELECT * FROM "player" ORDER BY "score" DESC LIMIT 10
/// ```
public struct QueryInterfaceRequest<RowDecoder>: FetchRequest, Sendable {
    typealias Filter = QueryFilter

    /// The table the request reads.
    public let tableName: String
    var selection: [SQLSelection]
    var filters: [Filter] = []
    var orderings: [SQLOrdering] = []
    var isReversed = false
    var groupings: [SQLExpression] = []
    var havings: [SQLExpression] = []
    /// Conditions on groups made with the connection (on the aggregates of associations).
    var havingsWhenConnected: [@Sendable (Database) throws -> SQLExpression] = []
    var limitCount: Int?
    var offsetCount: Int?
    var isDistinct = false
    /// `orderByPrimaryKey()`, `groupByPrimaryKey()`: the primary key, read when the SQL is
    /// made, unless other orderings or groupings came later.
    var ordersByPrimaryKey = false
    var groupsByPrimaryKey = false
    /// `withStableOrder()`: the primary key ends the ordering, read when the SQL is made.
    var hasStableOrder = false
    /// `with(_:)`: the `WITH` clause.
    var commonTableExpressions: [CTEDefinition] = []
    /// The associations joined to the request (`including`, `joining`).
    var joins: [AssociationJoin] = []
    /// `aliased(_:)`: the alias of the request's table.
    var alias: TableAliasIdentity?

    init(tableName: String, selection: [SQLSelection] = [.allColumns]) {
        self.tableName = tableName
        self.selection = selection
    }

    // MARK: - Building

    /// Selects these columns or expressions instead.
    public func select(_ selection: any SQLSelectable...) -> Self {
        select(selection)
    }

    /// Selects these columns or expressions instead.
    public func select(_ selection: [any SQLSelectable]) -> Self {
        var request = self
        request.selection = selection.map(\.sqlSelection)
        return request
    }

    /// Selects one expression, and fetches values of `type`:
    /// `Player.select(max(Column("score")), as: Int.self)`.
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        let request: Self = select(selection)
        return request.asRequest(of: T.self)
    }

    /// Selects the columns named after record properties:
    /// `Player.select(\.score)` selects the `score` column.
    public func select<Root>(_ keyPaths: PartialKeyPath<Root>...) -> Self {
        select(keyPaths.map { Column(columnName(of: $0)) })
    }

    /// Keeps rows that satisfy `predicate` (AND-ed with previous filters).
    public func filter(_ predicate: some SQLExpressible) -> Self {
        var request = self
        request.filters.append(.expression(predicate.sqlExpression))
        return request
    }

    /// Keeps rows that satisfy a predicate made when the request runs, with its connection
    /// (AND-ed with the other filters):
    ///
    /// ```swift
    /// let request = Player.all().filterWhenConnected { db in
    ///     Column("score") > (try Int.fetchOne(db, sql: "SELECT threshold FROM settings") ?? 0)
    /// }
    /// ```
    public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        var request = self
        request.filters.append(.whenConnected(predicate))
        return request
    }

    /// Keeps the row with this primary key: `Player.filter(key: 1)`. Tables without an
    /// explicit primary key use the rowid.
    public func filter(key: some DatabaseValueConvertible) -> Self {
        filter(keys: [key])
    }

    /// Keeps the rows with these primary keys: `Player.filter(keys: [1, 2, 3])`.
    ///
    /// Dates, data and UUIDs are encoded with the strategies of the record type, if it is
    /// an ``EncodableRecord``, as its `insert` stores them: `Player.filter(id: uuid)` finds
    /// the row of a record that stores its id as uppercase text.
    public func filter<S: Sequence>(keys: S) -> Self where S.Element: DatabaseValueConvertible {
        var request = self
        // (The keys are read once: a sequence may not be read twice.)
        if EncodedPrimaryKeys.mayEncode(S.Element.self) {
            let keys = Array(keys)
            if !keys.contains(where: { !$0.databaseValue.isNull }) {
                request.filters.append(.noKey)
            } else if let encodedKeys = EncodedPrimaryKeys(RowDecoder.self, keys) {
                request.filters.append(.encodedKeys(encodedKeys))
            } else {
                request.filters.append(.keys(keys.map { [$0.databaseValue] }))
            }
        } else {
            let values = keys.map { [$0.databaseValue] }
            request.filters.append(values.allSatisfy { $0[0].isNull } ? .noKey : .keys(values))
        }
        return request
    }

    /// Keeps the row with this key, given as columns and values:
    /// `Citizenship.filter(key: ["citizenId": 1, "countryCode": "FR"])`.
    public func filter(key: [String: (any DatabaseValueConvertible)?]) -> Self {
        filter(keys: [key])
    }

    /// Keeps the rows with these keys, given as columns and values.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        var request = self
        request.filters.append(.keyDictionaries(keys.map { $0.mapValues { $0?.databaseValue ?? .null } }))
        return request
    }

    /// Keeps rows that satisfy an SQL condition: `filter(sql: "score > ?", arguments: [1000])`.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        filter(SQLExpression(sql: sql, arguments: arguments))
    }

    /// Sorts by an SQL ordering instead: `order(sql: "score DESC, name")`.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        var request = self
        request.orderings = [SQLOrdering(literal: SQLLiteralFragment(sql: sql, arguments: arguments))]
        request.isReversed = false
        return request
    }

    /// Whether the request fetches no row.
    public func isEmpty(_ db: Database) throws -> Bool {
        // No key (`exists(db, id: nil)`): nothing to ask the database, as in GRDB.
        if filtersNoKey { return true }
        let sql = try makeSQL(db)
        return try !(Bool.fetchOne(db, sql: "SELECT EXISTS (\(sql.sql))", arguments: sql.arguments) ?? false)
    }

    /// Sorts by these orderings instead.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        var request = self
        request.orderings = orderings.map(\.sqlOrdering)
        request.isReversed = false
        return request
    }

    /// Sorts by the primary key (the rowid for a table without one).
    public func orderByPrimaryKey() -> Self {
        var request = self
        request.orderings = []
        request.isReversed = false
        request.ordersByPrimaryKey = true
        return request
    }

    /// Groups rows by the primary key: `GROUP BY id`.
    public func groupByPrimaryKey() -> Self {
        var request = self
        request.groupings = []
        request.groupsByPrimaryKey = true
        return request
    }

    /// Reverses the ordering, and the orderings of the associations it includes. A request
    /// without ordering is unchanged: `Player.all().reversed()` is `SELECT * FROM player`.
    public func reversed() -> Self {
        var request = self
        request.isReversed.toggle()
        return request
    }

    /// Fetches at most `limit` rows, after skipping `offset`.
    public func limit(_ limit: Int, offset: Int? = nil) -> Self {
        var request = self
        request.limitCount = limit
        request.offsetCount = offset
        return request
    }

    /// Removes duplicate rows: `SELECT DISTINCT`.
    public func distinct() -> Self {
        var request = self
        request.isDistinct = true
        return request
    }

    /// Groups rows: `GROUP BY`.
    public func group(_ expressions: any SQLExpressible...) -> Self {
        group(expressions)
    }

    /// Filters groups: `HAVING`.
    public func having(_ predicate: some SQLExpressible) -> Self {
        var request = self
        request.havings.append(predicate.sqlExpression)
        return request
    }

    /// The same request, fetching another type.
    public func asRequest<T>(of type: T.Type) -> QueryInterfaceRequest<T> {
        var request = QueryInterfaceRequest<T>(tableName: tableName, selection: selection)
        request.filters = filters
        request.orderings = orderings
        request.isReversed = isReversed
        request.groupings = groupings
        request.havings = havings
        request.havingsWhenConnected = havingsWhenConnected
        request.limitCount = limitCount
        request.offsetCount = offsetCount
        request.isDistinct = isDistinct
        request.ordersByPrimaryKey = ordersByPrimaryKey
        request.groupsByPrimaryKey = groupsByPrimaryKey
        request.hasStableOrder = hasStableOrder
        request.commonTableExpressions = commonTableExpressions
        request.joins = joins
        request.alias = alias
        return request
    }

    // MARK: - SQL

    /// The SQL and arguments of the request.
    public func makeSQL(_ db: Database, forSingleResult: Bool = false) throws -> SQL {
        try makeSQL(db, forSingleResult: forSingleResult, outerAliasNames: [:])
    }

    /// The SQL and arguments of the request, embedded as a subquery in requests whose
    /// aliases have the SQL names `outerAliasNames`. Without a connection (in an SQL
    /// literal), only a request that needs no schema information can be written.
    func makeSQL(_ db: Database?, forSingleResult: Bool = false, outerAliasNames: [ObjectIdentifier: String]) throws -> SQL {
        func connection() throws -> Database {
            guard let db else {
                throw DatabaseError(
                    message: """
                        the SQL of this request needs the schema (associations, keys, primary key orderings, \
                        common table expressions): use it as a subquery of another request, not in an SQL literal
                        """)
            }
            return db
        }
        var context = SQLGenerationContext()
        context.database = db
        if !outerAliasNames.isEmpty { context.outerAliasNames = outerAliasNames }
        // Columns are qualified by their table when the request joins associations.
        // (Checked here, without generic code, for the requests without associations.)
        let plan = joins.isEmpty && alias == nil ? nil : JoinPlan(self)
        let commonTableExpressions = plan?.commonTableExpressions ?? self.commonTableExpressions
        var sql = try commonTableExpressions.isEmpty ? "" : CTEDefinition.withClause(commonTableExpressions, connection(), &context)
        sql += "SELECT "
        if let plan { plan.enter(try connection(), &context) }
        if isDistinct { sql += "DISTINCT " }
        let selection =
            try self.selection.contains(where: { $0.waitsForConnection })
            ? self.selection.flatMap { try $0.resolved(connection(), table: tableName) }
            : self.selection
        if let plan {
            var selectionSQL = selection.map { $0.sql(&context) }.joined(separator: ", ")
            selectionSQL += try plan.joinedSelectionSQL(connection(), &context)
            if selectionSQL.hasPrefix(", ") { selectionSQL.removeFirst(2) }
            sql += selectionSQL
        } else {
            sql += selection.map { $0.sql(&context) }.joined(separator: ", ")
        }
        sql += " FROM " + tableName.quotedDatabaseIdentifier
        if let plan { sql += try plan.tableAliasSQL(0) + plan.joinSQL(connection(), &context) }
        let predicate: SQLExpression?
        if let db {
            predicate = try wherePredicate(db)
        } else {
            predicate = try expressionPredicate ?? wherePredicate(connection())
        }
        if let predicate {
            sql += " WHERE " + predicate.sql(&context)
        }
        var groupings = self.groupings
        if groupings.isEmpty, groupsByPrimaryKey {
            groupings = try connection().fastPrimaryKeyColumns(tableName).map { Column($0).sqlExpression }
        }
        if !groupings.isEmpty {
            sql += " GROUP BY " + groupings.map { $0.sql(&context) }.joined(separator: ", ")
        }
        let havings = try havingsWhenConnected.isEmpty ? self.havings : self.havings + havingsWhenConnected.map { try $0(connection()) }
        if !havings.isEmpty {
            sql += " HAVING " + Self.conjunction(havings).sql(&context)
        }
        let orderings =
            try ordersByPrimaryKey || hasStableOrder
            ? effectiveOrderings(connection()) : (isReversed ? self.orderings.map(\.reversed) : self.orderings)
        var orderingSQL = orderings.map { $0.sql(&context) }
        if let plan { orderingSQL += try plan.joinedOrderingSQL(connection(), &context, reversed: isReversed) }
        if !orderingSQL.isEmpty {
            sql += " ORDER BY " + orderingSQL.joined(separator: ", ")
        }
        // One row at most: `LIMIT 1`, unless the request says how many or yields one row
        // at most already (GRDB's SQL).
        var limit = limitCount
        if limit == nil, forSingleResult, try !expectsSingleResult(connection(), selection: selection, predicate: predicate) { limit = 1 }
        if let limit {
            sql += " LIMIT \(limit)"
            if let offsetCount { sql += " OFFSET \(offsetCount)" }
        } else if let offsetCount {
            sql += " LIMIT -1 OFFSET \(offsetCount)"
        }
        if let undefinedAlias = context.undefinedAlias {
            throw DatabaseError(
                message: """
                    the request uses \(undefinedAlias), which names no table of the request: \
                    give it to `aliased(_:)` of the request or of one of its associations
                    """)
        }
        try context.checkSubqueries()
        return SQL(sql: sql, arguments: StatementArguments(context.arguments))
    }

    /// The orderings of the request, with the primary key where `orderByPrimaryKey()` or
    /// `withStableOrder()` need it, reversed when the request is (or `reversed` says so:
    /// the request is included in a reversed one).
    func effectiveOrderings(_ db: Database, reversed: Bool? = nil) throws -> [SQLOrdering] {
        var orderings = self.orderings
        if orderings.isEmpty, ordersByPrimaryKey {
            orderings = try db.primaryKey(tableName).columns.map { Column($0).sqlOrdering }
        }
        if hasStableOrder { orderings += try stableOrderings(db) }
        if reversed ?? isReversed { orderings = orderings.map(\.reversed) }
        return orderings
    }

    static func conjunction(_ expressions: [SQLExpression]) -> SQLExpression {
        expressions.dropFirst().reduce(expressions[0]) { $0 && $1 }
    }

    /// The WHERE clause when it is made of expressions only (no key filter, nothing
    /// made with the connection); nil otherwise.
    private var expressionPredicate: SQLExpression?? {
        var terms: [SQLExpression] = []
        for filter in filters {
            guard case .expression(let expression) = filter else { return nil }
            terms.append(expression)
        }
        return .some(terms.isEmpty ? nil : Self.conjunction(terms))
    }

    /// The WHERE clause, with key filters resolved against the schema.
    func wherePredicate(_ db: Database) throws -> SQLExpression? {
        let terms = try whereTerms(db)
        return terms.isEmpty ? nil : Self.conjunction(terms)
    }

    /// The terms of the WHERE clause, with key filters resolved against the schema.
    func whereTerms(_ db: Database) throws -> [SQLExpression] {
        var expressions: [SQLExpression] = []
        for filter in filters {
            switch filter {
            case .expression(let expression):
                expressions.append(expression)
            case .keys(let keys):
                expressions.append(try keyPredicate(db) { _ in keys.map { $0[0] } })
            case .encodedKeys(let keys):
                expressions.append(try keyPredicate(db, keys.databaseValues))
            case .noKey:
                expressions.append(SQLExpression(.atom("0")))
            case .keyDictionaries(let dictionaries):
                expressions.append(try keyDictionaryPredicate(db, dictionaries))
            case .whenConnected(let predicate):
                expressions.append(try predicate(db).sqlExpression)
            }
        }
        return expressions
    }

    private func primaryKey(_ db: Database) throws -> PrimaryKeyInfo {
        if try db.isView(tableName), db.schemaSource == nil {
            throw DatabaseError(message: "view \(tableName) has no primary key: filter(key:) needs a table, or a schema source in the configuration")
        }
        return try db.primaryKey(tableName)
    }

    /// `values`: the keys' values for the primary key column.
    private func keyPredicate(_ db: Database, _ values: (_ column: String) throws -> [DatabaseValue]) throws -> SQLExpression {
        let primaryKey = try primaryKey(db)
        guard primaryKey.columns.count == 1 else {
            throw DatabaseError(
                message: """
                    table \(tableName) has a composite primary key (\(primaryKey.columns.joined(separator: ", "))): \
                    use filter(key: [column: value, ...])
                    """)
        }
        let column = Column(primaryKey.columns[0])
        let values = try values(primaryKey.columns[0]).filter { !$0.isNull }
        if values.count == 1 { return column == values[0] }
        return values.contains(column)
    }

    private func keyDictionaryPredicate(_ db: Database, _ dictionaries: [[String: DatabaseValue]]) throws -> SQLExpression {
        let primaryKey = try primaryKey(db)
        var columnNames = Set(try db.columns(in: tableName).map { $0.name.lowercased() })
        if !primaryKey.isWithoutRowID { columnNames.formUnion(["rowid", "_rowid_", "oid"]) }
        var alternatives: [SQLExpression] = []
        for dictionary in dictionaries {
            for name in dictionary.keys where !columnNames.contains(name.lowercased()) {
                throw DatabaseError(message: "table \(tableName) has no column \(name)")
            }
            // The columns must hold a unique key; other columns may come too.
            guard let key = try db.uniqueKey(of: tableName, coveredBy: dictionary.keys) else {
                throw DatabaseError(
                    message: """
                        table \(tableName) has no unique key on \(dictionary.keys.sorted().joined(separator: ", ")); \
                        its primary key is \(primaryKey.columns.joined(separator: ", "))
                        """)
            }
            // The key's columns in its order, as GRDB writes them, then the others.
            let columns = dictionary.keys.sorted { a, b in
                switch (key.firstIndex(of: a.lowercased()), key.firstIndex(of: b.lowercased())) {
                case let (i?, j?): return i < j
                case (.some, nil): return true
                case (nil, .some): return false
                case (nil, nil): return a < b
                }
            }
            alternatives.append(Self.conjunction(columns.map { Column($0) == dictionary[$0]! }))
        }
        guard !alternatives.isEmpty else { return SQLExpression(sql: "0") }
        return alternatives.dropFirst().reduce(alternatives[0]) { $0 || $1 }
    }

    public func makePreparedRequest(_ db: Database, forSingleResult: Bool) throws -> PreparedRequest {
        let sql = try makeSQL(db, forSingleResult: forSingleResult)
        let prefetcher = joins.isEmpty ? nil : AssociationPrefetcher(self)
        // A statement that tells the request's region (`statement.databaseRegion`: the
        // prefetched tables, or nothing for `none()`) is its own, shared with no other
        // request of the same SQL.
        let tellsRequestRegion = prefetcher != nil || isNone
        var statement = try tellsRequestRegion ? db.makeStatement(sql: sql.sql) : db.cachedStatement(sql: sql.sql)
        var adapter = joins.isEmpty ? nil : try JoinPlan(self)?.rowAdapter(db)
        if let expected = adapter?.columnCount, expected != statement.columnCount {
            // The schema changed since the statement or the schema facts were cached (a
            // column was added): read both again.
            db.clearSchemaCache()
            statement = try db.makeStatement(sql: sql.sql)
            adapter = try JoinPlan(self)?.rowAdapter(db)
        }
        // The statement carries its arguments, as in GRDB, for code that runs it directly.
        try statement.setArguments(sql.arguments)
        var prepared = PreparedRequest(statement: statement, arguments: sql.arguments, adapter: adapter)
        prepared.supplementaryFetch = prefetcher?.fetch
        if tellsRequestRegion {
            statement.state.requestRegion = try databaseRegion(db, statementRegion: prepared.region, prefetcher: prefetcher)
        }
        if db.state.value.observation.recordedRegion != nil {
            // A value observation is recording: give it the rowids too, when it runs, and
            // the tables of prefetched associations, which a fetch without rows does not
            // query (an observation of a constant region keeps what its first fetch read).
            let region = try statement.state.requestRegion ?? databaseRegion(db, statementRegion: prepared.region, prefetcher: nil)
            db.state.value.observation.preparedStatementRegion = (statement, region)
        }
        return prepared
    }

    private func rowIDRestrictedRegion(_ db: Database, _ region: DatabaseRegion) throws -> DatabaseRegion {
        guard let predicate = try wherePredicate(db) else { return region }
        // (`filter(keys: [])`: the keys make their predicate with the connection.)
        if predicate.isAlwaysFalse { return DatabaseRegion() }
        guard let primaryKey = try? db.primaryKey(tableName),
            let rowIDColumn = primaryKey.rowIDName,
            let rowIDs = predicate.restrictedRowIDs(rowIDColumn: rowIDColumn)
        else { return region }
        return region.restricting(table: tableName, toRowIDs: rowIDs)
    }

    /// The number of rows: `SELECT COUNT(*) FROM "player" WHERE ...`, or a subquery when
    /// the request is distinct, grouped or limited.
    public func fetchCount(_ db: Database) throws -> Int {
        // (An aggregate without grouping, `SELECT MAX("score")`, is one row: counted as such.)
        let isAggregated =
            !groupings.isEmpty || groupsByPrimaryKey || !havings.isEmpty || !havingsWhenConnected.isEmpty || selectsAggregate(selection)
        let isLimited = limitCount != nil || offsetCount != nil
        var count: SQLExpression = SQLExpression(.countAll)
        if isDistinct {
            // One distinct expression is counted in place: COUNT(DISTINCT "name").
            guard !isAggregated, !isLimited, selection.count == 1, let expression = selection[0].countableExpression else {
                return try fetchCountOfSubquery(db)
            }
            count = SQLExpression(.countDistinct(expression.node))
        } else if isAggregated || isLimited {
            return try fetchCountOfSubquery(db)
        } else if selection.count > 1, selection.contains(where: \.namesColumns) {
            // A filter may read a column the selection names (`annotated(with: x.forKey("alt"))
            // .filter(Column("alt").detached)`): the selection stays, as GRDB counts it.
            return try fetchCountOfSubquery(db)
        }
        var request = select(count).withoutJoinedSelection().asRequest(of: Int.self).unordered()
        request.isDistinct = false
        // Fetched as a list, for a statement without LIMIT; the region of the request's
        // own statement stays, rowids included.
        return try request.fetchAll(db).first ?? 0
    }

    private func fetchCountOfSubquery(_ db: Database) throws -> Int {
        let sql = try makeSQL(db)
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(sql.sql))", arguments: sql.arguments) ?? 0
    }

    /// The region the request reads. Requests filtered by primary key on tables whose
    /// primary key is the rowid report those rowids only.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        let sql = try makeSQL(db)
        let prefetcher = joins.isEmpty ? nil : AssociationPrefetcher(self)
        return try databaseRegion(db, statementRegion: db.cachedStatement(sql: sql.sql).report.readRegion, prefetcher: prefetcher)
    }

    /// The region of the request, from the region of its statement: empty for `none()`,
    /// which never fetches a row; with the tables of prefetched associations.
    private func databaseRegion(_ db: Database, statementRegion: DatabaseRegion, prefetcher: AssociationPrefetcher?) throws -> DatabaseRegion {
        guard !isNone else { return DatabaseRegion() }
        var region = try rowIDRestrictedRegion(db, statementRegion)
        if let prefetcher { region.formUnion(try prefetcher.region(db)) }
        return region
    }

    /// Whether a filter can match no row: `none()`, or a test against an empty list.
    private var isNone: Bool {
        filters.contains { filter in
            switch filter {
            case .expression(let expression): return expression.isAlwaysFalse
            case .noKey: return true
            case .keys, .encodedKeys, .keyDictionaries, .whenConnected: return false
            }
        }
    }

    /// Whether the request was filtered by no primary key (see `QueryFilter.noKey`).
    var filtersNoKey: Bool {
        filters.contains { if case .noKey = $0 { true } else { false } }
    }
}

/// A filter of a request; key filters are resolved against the schema.
enum QueryFilter: Sendable {
    case expression(SQLExpression)
    /// Primary key values, one array per key (one value per key column).
    case keys([[DatabaseValue]])
    /// Primary key values encoded with a record's strategies (see `EncodedPrimaryKeys`).
    case encodedKeys(EncodedPrimaryKeys)
    /// No primary key, or only NULLs: no row. Batch deletes and updates of such a request
    /// run no statement, as in GRDB (`deleteAll(db, ids: [])`).
    case noKey
    /// Unique keys given as column-value dictionaries.
    case keyDictionaries([[String: DatabaseValue]])
    /// A predicate made with the connection (`filterWhenConnected`).
    case whenConnected(@Sendable (Database) throws -> any SQLExpressible)
}

/// The column name of a record property key path: `\Player.score` is `score`.
func columnName<Root>(of keyPath: PartialKeyPath<Root>) -> String {
    let description = String(describing: keyPath)
    guard let dot = description.lastIndex(of: ".") else {
        fatalError("Could not find the property name of \(description): select a Column instead")
    }
    return String(description[description.index(after: dot)...])
}
