/// A type that is stored in a database table.
///
/// ```swift
/// struct Player: TableRecord { ... }
/// Player.databaseTableName  // "player"
/// let request = Player.filter(Column("score") > 1000).order(Column("name"))
/// ```
public protocol TableRecord: GRDBSendableMetatype {
    /// The table name. By default, the type name with a lowercase first letter:
    /// `Player` is `player`, `HTTPRequest` is `httpRequest`.
    static var databaseTableName: String { get }

    /// What requests select by default. By default, all columns.
    static var databaseSelection: [any SQLSelectable] { get }

    /// The columns of the table, as a type with static members, usually a nested enum:
    ///
    /// ```swift
    /// struct Player: TableRecord, Codable {
    ///     enum Columns {
    ///         static let name = Column(CodingKeys.name)
    ///         static let score = Column(CodingKeys.score)
    ///     }
    /// }
    /// let request = Player.filter { $0.score > 1000 }.order { $0.name }
    /// ```
    associatedtype Columns = Never

    /// What the closures of `filter { ... }`, `order { ... }` and `select { ... }` receive:
    /// `Columns.Type` by default, so that `$0.score` is `Columns.score`.
    associatedtype DatabaseComponents = Columns.Type

    /// The value given to those closures.
    static var databaseComponents: DatabaseComponents { get }
}

extension TableRecord where DatabaseComponents == Columns.Type {
    public static var databaseComponents: DatabaseComponents { Columns.self }
}

extension TableRecord {
    /// Records that satisfy the predicate built from the table's columns:
    /// `Player.filter { $0.score > 1000 }`.
    public static func filter(_ predicate: (DatabaseComponents) throws -> some SQLExpressible) rethrows -> QueryInterfaceRequest<Self> {
        try all().filter(predicate)
    }

    /// Records sorted by an ordering built from the table's columns:
    /// `Player.order { $0.score.desc }`.
    public static func order(_ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> QueryInterfaceRequest<Self> {
        try all().order(ordering)
    }

    /// Records sorted by orderings built from the table's columns:
    /// `Player.order { [$0.score.desc, $0.name] }`.
    public static func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> QueryInterfaceRequest<Self> {
        try all().order(orderings)
    }

    /// Records with a selection built from the table's columns:
    /// `Player.select { [$0.id, $0.name] }`.
    public static func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self> {
        try all().select(selection)
    }

    /// Records with one column or expression built from the table's columns:
    /// `Player.select { $0.name }`.
    public static func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self> {
        try all().select(selection)
    }

    /// One column or expression built from the table's columns, fetched as `type`.
    public static func select<T>(_ selection: (DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self) rethrows
        -> QueryInterfaceRequest<T>
    {
        try all().select(selection, as: type)
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// Keeps rows that satisfy the predicate built from the table's columns.
    public func filter(_ predicate: (RowDecoder.DatabaseComponents) throws -> some SQLExpressible) rethrows -> Self {
        filter(try predicate(RowDecoder.databaseComponents))
    }

    /// Sorts by an ordering built from the table's columns.
    public func order(_ ordering: (RowDecoder.DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> Self {
        order(try ordering(RowDecoder.databaseComponents))
    }

    /// Sorts by orderings built from the table's columns.
    public func order(_ orderings: (RowDecoder.DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> Self {
        let terms = try orderings(RowDecoder.databaseComponents)
        var request = self
        request.orderings = terms.map(\.sqlOrdering)
        request.isReversed = false
        return request
    }

    /// Selects the one column or expression the closure builds from the table's columns:
    /// `Player.all().select { $0.name }`.
    public func select(_ selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        var request = self
        request.selection = [try selection(RowDecoder.databaseComponents).sqlSelection]
        return request
    }

    /// Selects what the closure builds from the table's columns, fetched as `type`:
    /// `Player.all().select({ $0.name }, as: String.self)`.
    public func select<T>(_ selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable, as type: T.Type = T.self) rethrows
        -> QueryInterfaceRequest<T>
    {
        select(try selection(RowDecoder.databaseComponents), as: type)
    }

    /// Selects what the closure builds from the table's columns.
    public func select(_ selection: (RowDecoder.DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        var request = self
        request.selection = try selection(RowDecoder.databaseComponents).map(\.sqlSelection)
        return request
    }
}

extension TableRecord {
    public static var databaseTableName: String {
        defaultTableName(for: Self.self)
    }

    public static var databaseSelection: [any SQLSelectable] { [AllColumns()] }

    /// The number of columns that ``databaseSelection`` selects, `*` counted with the
    /// table's columns:
    ///
    /// ```swift
    /// struct PartialPlayer: TableRecord {
    ///     static let databaseTableName = "player"
    ///     static let databaseSelection: [any SQLSelectable] = [Column("id"), Column("name")]
    /// }
    /// try PartialPlayer.numberOfSelectedColumns(db) // 2
    /// ```
    ///
    /// Throws for a selection of raw SQL (`SQL("id, name")`), whose columns Ripple does not
    /// count (GRDB stops the process).
    public static func numberOfSelectedColumns(_ db: Database) throws -> Int {
        try databaseSelection.reduce(0) { count, selectable in
            let selection = selectable.sqlSelection
            if case .literal(let fragment) = selection.kind {
                throw DatabaseError(
                    message: """
                        selection literals don't know how many columns they contain: \(fragment.sql). \
                        To resolve this error, select one or several expressions instead.
                        """)
            }
            return try count + all().select(selection).selectedColumnCount(db)
        }
    }

    /// A request of all records.
    public static func all() -> QueryInterfaceRequest<Self> {
        QueryInterfaceRequest(tableName: databaseTableName, selection: databaseSelection.map(\.sqlSelection))
    }

    /// A request of no record.
    public static func none() -> QueryInterfaceRequest<Self> {
        all().none()
    }

    /// Selects these columns or expressions.
    public static func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> { all().select(selection) }
    /// Selects one expression, and fetches values of `type`.
    public static func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }
    /// Selects the columns named after these properties: `Player.select(\.score)`.
    public static func select(_ keyPaths: PartialKeyPath<Self>...) -> QueryInterfaceRequest<Self> {
        all().select(keyPaths.map { Column(columnName(of: $0)) })
    }
    /// Filters with a predicate.
    public static func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<Self> { all().filter(predicate) }
    /// Filters by primary key.
    public static func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<Self> { all().filter(key: key) }
    /// Filters by primary keys.
    public static func filter<S: Sequence>(keys: S) -> QueryInterfaceRequest<Self> where S.Element: DatabaseValueConvertible {
        all().filter(keys: keys)
    }
    /// Filters by a key given as columns and values.
    public static func filter(key: [String: (any DatabaseValueConvertible)?]) -> QueryInterfaceRequest<Self> { all().filter(key: key) }
    /// Filters by keys given as columns and values.
    public static func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<Self> { all().filter(keys: keys) }
    /// Sorts.
    public static func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<Self> {
        var request = all()
        request.orderings = orderings.map(\.sqlOrdering)
        return request
    }
    /// Limits.
    public static func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<Self> { all().limit(limit, offset: offset) }

    /// The number of records.
    public static func fetchCount(_ db: Database) throws -> Int { try all().fetchCount(db) }

    /// Deletes all records and returns how many were deleted.
    @discardableResult
    public static func deleteAll(_ db: Database) throws -> Int { try all().deleteAll(db) }

    /// All records, sorted by primary key.
    public static func orderByPrimaryKey() -> QueryInterfaceRequest<Self> { all().orderByPrimaryKey() }

    /// Updates all records and returns how many were updated.
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: ColumnAssignment...
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all records and returns how many were updated.
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all records with an assignment built from the table's columns:
    /// `Player.updateAll(db) { $0.score += 1 }`.
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (DatabaseComponents) -> ColumnAssignment
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, [assignment(databaseComponents)])
    }

    /// Updates all records with assignments built from the table's columns.
    @discardableResult
    public static func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) -> [ColumnAssignment]
    ) throws -> Int {
        try all().updateAll(db, onConflict: conflictResolution, assignments(databaseComponents))
    }

    /// Keeps rows that satisfy an SQL condition.
    public static func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().filter(sql: sql, arguments: arguments)
    }

    /// Sorts by an SQL ordering.
    public static func order(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().order(sql: sql, arguments: arguments)
    }

    /// Whether the table is empty.
    public static func isEmpty(_ db: Database) throws -> Bool { try all().isEmpty(db) }

    /// Deletes the records with these primary keys; returns how many were deleted.
    @discardableResult
    public static func deleteAll<S: Sequence>(_ db: Database, keys: S) throws -> Int where S.Element: DatabaseValueConvertible {
        try filter(keys: keys).deleteAll(db)
    }

    /// Deletes the record with this primary key; returns whether there was one.
    @discardableResult
    public static func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        try filter(key: key).deleteAll(db) > 0
    }

    /// Whether a record with this primary key exists.
    public static func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }
}

/// `Player` is `player`, `HTTPRequest` is `httpRequest`, `URL` is `url`.
func defaultTableName(for type: Any.Type) -> String {
    // `String(describing:)` of a type demangles its name: too dear for each request.
    let key = ObjectIdentifier(type)
    if let name = defaultTableNames.withLock({ $0[key] }) { return name }
    let name = uncachedDefaultTableName(for: type)
    defaultTableNames.withLock { $0[key] = name }
    return name
}

/// The default table names of the record types met so far.
private let defaultTableNames = LockedState<[ObjectIdentifier: String]>([:])

private func uncachedDefaultTableName(for type: Any.Type) -> String {
    var name = String(describing: type)
    if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
    if let dot = name.lastIndex(of: ".") { name = String(name[name.index(after: dot)...]) }
    let characters = Array(name)
    let uppercaseRun = characters.prefix { $0.isUppercase }.count
    guard uppercaseRun > 0 else { return name }
    if uppercaseRun == 1 || uppercaseRun == characters.count {
        return String(characters[..<uppercaseRun]).lowercased() + String(characters[uppercaseRun...])
    }
    // "HTTPRequest": the last capital starts the next word.
    return String(characters[..<(uppercaseRun - 1)]).lowercased() + String(characters[(uppercaseRun - 1)...])
}
