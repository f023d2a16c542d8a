/// Defines the columns and constraints of a table; see `Database.create(table:options:body:)`.
///
/// ```swift
/// try db.create(table: "player") { t in
///     t.autoIncrementedPrimaryKey("id")
///     t.column("name", .text).notNull().defaults(to: "Anonymous")
///     t.column("score", .integer).notNull().indexed()
///     t.belongsTo("team", onDelete: .cascade)
/// }
/// ```
public final class TableDefinition {
    let name: String
    let options: TableOptions
    private(set) var columns: [ColumnDefinition] = []
    private var constraints: [String] = []
    /// Indexes made after the table (`indexed()`, `belongsTo`).
    var indexedColumns: [[String]] = []
    /// Unique indexes made after the table (composite `belongsTo(...).unique()`).
    var uniqueIndexedColumns: [[String]] = []
    /// Foreign keys whose referenced columns are resolved when the table is made.
    private var pendingForeignKeys: [PendingForeignKey] = []

    struct PendingForeignKey {
        let columns: [String]
        let table: String
        let destinationColumns: [String]?
        let onDelete: Database.ForeignKeyAction?
        let onUpdate: Database.ForeignKeyAction?
        let deferred: Bool
    }

    init(name: String, options: TableOptions) {
        self.name = name
        self.options = options
    }

    /// `id INTEGER PRIMARY KEY AUTOINCREMENT`.
    @discardableResult
    public func autoIncrementedPrimaryKey(_ name: String, onConflict: Database.ConflictResolution? = nil) -> ColumnDefinition {
        column(name, .integer).primaryKey(onConflict: onConflict, autoincrement: true)
    }

    /// A primary key column: `uuid TEXT PRIMARY KEY NOT NULL`.
    @discardableResult
    public func primaryKey(_ name: String, _ type: Database.ColumnType, onConflict: Database.ConflictResolution? = nil) -> ColumnDefinition {
        let column = column(name, type).primaryKey(onConflict: onConflict, autoincrement: false)
        // An INTEGER PRIMARY KEY is the rowid, never NULL; other primary keys admit NULL
        // in SQLite unless told otherwise.
        if type != .integer { column.notNull() }
        return column
    }

    /// A primary key of several columns: `PRIMARY KEY (a, b)`.
    public func primaryKey(_ columns: [String], onConflict: Database.ConflictResolution? = nil) {
        compositePrimaryKey = CompositePrimaryKey(parts: columns.map { .column($0) }, onConflict: onConflict, constraintIndex: constraints.count)
        constraints.append("")  // written once the `belongsTo` columns are known
    }

    /// A primary key of the columns defined in `body`, not null; `belongsTo` in `body`
    /// adds the foreign key's columns (`t.primaryKey { t.belongsTo("team") }`).
    public func primaryKey(onConflict: Database.ConflictResolution? = nil, body: () throws -> Void) rethrows {
        let start = columns.count
        let belongsToStart = belongsToDefinitions.count
        try body()
        let defined = columns[start...]
        // (A column's own `notNull(onConflict:)` is kept.)
        for column in defined where !column.hasClause(.notNull) { column.notNull() }
        // In the order of declaration: a `belongsTo` goes before the column declared after it.
        var parts: [CompositePrimaryKey.Part] = []
        var pending = belongsToDefinitions[belongsToStart...].makeIterator()
        var next = pending.next()
        for (index, column) in zip(defined.indices, defined) {
            while let (position, definition) = next, position <= index {
                definition.becomesPartOfPrimaryKey()
                parts.append(.belongsTo(ObjectIdentifier(definition)))
                next = pending.next()
            }
            parts.append(.column(column.name))
        }
        while let (_, definition) = next {
            definition.becomesPartOfPrimaryKey()
            parts.append(.belongsTo(ObjectIdentifier(definition)))
            next = pending.next()
        }
        compositePrimaryKey = CompositePrimaryKey(parts: parts, onConflict: onConflict, constraintIndex: constraints.count)
        constraints.append("")  // written once the `belongsTo` columns are known
    }

    /// A primary key of several columns, some of them maybe `belongsTo` columns, known
    /// once the schema is at hand.
    private struct CompositePrimaryKey {
        enum Part {
            case column(String)
            case belongsTo(ObjectIdentifier)
        }
        var parts: [Part]
        var onConflict: Database.ConflictResolution?
        /// Where its `PRIMARY KEY` constraint goes among the constraints.
        var constraintIndex: Int
    }
    private var compositePrimaryKey: CompositePrimaryKey?

    /// A column, with an optional type: `name TEXT`.
    @discardableResult
    public func column(_ name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        columns.append(column)
        return column
    }

    /// A column defined in SQL: `t.column(sql: "name TEXT")`.
    public func column(sql: String) {
        columns.append(ColumnDefinition(sql: sql))
    }

    /// `UNIQUE (a, b)`.
    public func uniqueKey(_ columns: [String], onConflict: Database.ConflictResolution? = nil) {
        constraints.append("UNIQUE (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))" + Self.conflictClause(onConflict))
    }

    /// `FOREIGN KEY (a, b) REFERENCES parent(c, d)`; the referenced columns default to the
    /// primary key of `table`.
    public func foreignKey(
        _ columns: [String], references table: String, columns destinationColumns: [String]? = nil,
        onDelete: Database.ForeignKeyAction? = nil, onUpdate: Database.ForeignKeyAction? = nil,
        deferred: Bool = false
    ) {
        pendingForeignKeys.append(
            PendingForeignKey(
                columns: columns, table: table, destinationColumns: destinationColumns,
                onDelete: onDelete, onUpdate: onUpdate, deferred: deferred))
    }

    /// A column that refers to the primary key of another table, named after it
    /// (`t.belongsTo("team")`: `teamId INTEGER REFERENCES team(id)`), and indexed.
    ///
    /// Without `inTable:`, the name refers to the table `team`, or else to its plural
    /// `teams` (by ``Inflections/default``), or to the table being defined when its
    /// singular is the same (`t.belongsTo("player")` in the table `players`).
    @discardableResult
    public func belongsTo(
        _ name: String, inTable table: String? = nil,
        onDelete: Database.ForeignKeyAction? = nil, onUpdate: Database.ForeignKeyAction? = nil,
        deferred: Bool = false, indexed: Bool = true
    ) -> ForeignKeyDefinition {
        let definition = ForeignKeyDefinition(
            name: name, table: table, onDelete: onDelete, onUpdate: onUpdate, deferred: deferred, indexed: indexed)
        belongsToDefinitions.append((columns.count, definition))
        return definition
    }
    /// The `belongsTo` columns, resolved once the schema is at hand, and where they were
    /// declared among the columns (they keep that place).
    private var belongsToDefinitions: [(position: Int, definition: ForeignKeyDefinition)] = []

    /// `CHECK (...)`: `t.check(Column("a") + Column("b") < 10)`.
    public func check(_ condition: some SQLExpressible) {
        constraints.append("CHECK (\(condition.inlineSQL))")
    }

    /// `CHECK (...)` in SQL.
    public func check(sql: String) {
        constraints.append("CHECK (\(sql))")
    }

    /// A table constraint in SQL.
    public func constraint(sql: String) {
        constraints.append(sql)
    }

    static func conflictClause(_ resolution: Database.ConflictResolution?) -> String {
        resolution.map { " ON CONFLICT \($0.rawValue)" } ?? ""
    }

    /// The `CREATE TABLE` statement, once the referenced primary keys are known.
    func sql(_ db: Database) throws -> String {
        var parts: [String] = []
        // (Last declared first: each insertion leaves the earlier positions as they were.)
        var resolvedNames: [ObjectIdentifier: [String]] = [:]
        var compositeKeys: [PendingForeignKey] = []
        for (position, definition) in belongsToDefinitions.reversed() {
            var resolved: [ColumnDefinition] = []
            let table = try referencedTable(db, of: definition)
            let destination = try referencedPrimaryKey(db, table: table)
            // Named after the referenced key, as GRDB names them: `teamId` for `team(id)`,
            // `countryCode` for `country(code)`, `parentId` for a hidden rowid.
            let names = destination.map { key in
                key.lowercased() == "rowid" ? definition.name + "Id" : definition.name + key.prefix(1).uppercased() + key.dropFirst()
            }
            if destination.count == 1 {
                let column = ColumnDefinition(name: names[0], type: try referencedType(db, table: table, column: destination[0]))
                // (Clauses in GRDB's order: NOT NULL, UNIQUE, then REFERENCES, with the
                // hidden rowid named.)
                if definition.isNotNull { column.notNull() }
                if definition.isUnique { column.unique() }
                column.append(
                    .references,
                    ColumnDefinition.referencesClause(
                        table: table, columns: destination, onDelete: definition.onDelete,
                        onUpdate: definition.onUpdate, deferred: definition.deferred))
                resolved.append(column)
            } else {
                // A composite primary key: one column per key column, and a table constraint.
                for (key, name) in zip(destination, names) {
                    let column = ColumnDefinition(name: name, type: try referencedType(db, table: table, column: key))
                    if definition.isNotNull { column.notNull() }
                    resolved.append(column)
                }
                compositeKeys.append(
                    PendingForeignKey(
                        columns: resolved.map(\.name), table: table, destinationColumns: destination,
                        onDelete: definition.onDelete, onUpdate: definition.onUpdate, deferred: definition.deferred))
            }
            columns.insert(contentsOf: resolved, at: position)
            resolvedNames[ObjectIdentifier(definition)] = resolved.map(\.name)
        }
        // Their table constraints, and indexes, in the order of declaration.
        pendingForeignKeys.insert(contentsOf: compositeKeys.reversed(), at: 0)
        if let key = compositePrimaryKey {
            let names = key.parts.flatMap { part -> [String] in
                switch part {
                case .column(let name): return [name]
                case .belongsTo(let definition): return resolvedNames[definition] ?? []
                }
            }
            constraints[key.constraintIndex] =
                "PRIMARY KEY (\(names.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))" + Self.conflictClause(key.onConflict)
        }
        for (_, definition) in belongsToDefinitions {
            guard let names = resolvedNames[ObjectIdentifier(definition)] else { continue }
            if definition.isUnique {
                // (One column is UNIQUE in its definition.)
                if names.count > 1 { uniqueIndexedColumns.append(names) }
            } else if definition.indexed {
                indexedColumns.append(names)
            }
        }
        belongsToDefinitions.removeAll()
        parts += try columns.map { try $0.sql(db, table: name) { try referencedPrimaryKey(db, table: name) } }
        parts += constraints
        for key in pendingForeignKeys {
            let destination = try key.destinationColumns ?? referencedPrimaryKey(db, table: key.table)
            parts.append(
                "FOREIGN KEY (\(key.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) "
                    + ColumnDefinition.referencesClause(
                        table: key.table, columns: destination, onDelete: key.onDelete, onUpdate: key.onUpdate, deferred: key.deferred))
        }
        for column in columns where column.isIndexed { indexedColumns.append([column.name]) }
        var sql = "CREATE "
        if options.contains(.temporary) { sql += "TEMPORARY " }
        sql += "TABLE "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        sql += name.quotedDatabaseIdentifier + " (" + parts.joined(separator: ", ") + ")"
        var tableOptions: [String] = []
        if options.contains(.withoutRowID) { tableOptions.append("WITHOUT ROWID") }
        if options.contains(.strict) { tableOptions.append("STRICT") }
        if !tableOptions.isEmpty { sql += " " + tableOptions.joined(separator: ", ") }
        return sql
    }

    /// The primary key of a referenced table: this table itself when it refers to itself.
    /// The table of a `belongsTo`: the one named by `inTable:`, else the table being defined
    /// when its name has the same singular (`players` for `belongsTo("player")`), else the
    /// table named as the association or as its plural (`team`, then `teams`).
    private func referencedTable(_ db: Database, of definition: ForeignKeyDefinition) throws -> String {
        if let table = definition.table { return table }
        if name.singularized.lowercased() == definition.name.singularized.lowercased() { return name }
        if try db.tableExists(definition.name) { return definition.name }
        let plural = definition.name.pluralized
        if try db.tableExists(plural) { return plural }
        return definition.name  // missing: the primary key lookup throws
    }

    private func referencedPrimaryKey(_ db: Database, table: String) throws -> [String] {
        if table.lowercased() == name.lowercased() {
            if let column = columns.first(where: \.isPrimaryKey) { return [column.name] }
            // (A table's own `belongsTo` columns can not be part of a key it refers to.)
            if let key = compositePrimaryKey {
                return key.parts.compactMap { if case .column(let name) = $0 { name } else { nil } }
            }
            return ["rowid"]
        }
        return try db.primaryKey(table).columns
    }

    /// The type of a foreign key column: the referenced column's, none when it has none
    /// (as GRDB writes it), `INTEGER` for a rowid.
    private func referencedType(_ db: Database, table: String, column: String) throws -> Database.ColumnType? {
        if table.lowercased() == name.lowercased() {
            guard let definition = columns.first(where: { $0.name.lowercased() == column.lowercased() }) else { return .integer }
            return definition.type
        }
        let type = try String.fetchOne(db, sql: "SELECT type FROM pragma_table_info(?) WHERE name = ? COLLATE NOCASE", arguments: [table, column])
        guard let type else { return .integer }  // the hidden rowid
        return type.isEmpty ? nil : Database.ColumnType(rawValue: type)
    }
}

/// The column of a `belongsTo` foreign key.
public final class ForeignKeyDefinition {
    let name: String
    /// The table named by `inTable:`.
    let table: String?
    let onDelete: Database.ForeignKeyAction?
    let onUpdate: Database.ForeignKeyAction?
    let deferred: Bool
    /// Whether the column(s) get an index (not those of the primary key: it is one).
    private(set) var indexed: Bool
    private(set) var isNotNull = false
    private(set) var isUnique = false

    init(name: String, table: String?, onDelete: Database.ForeignKeyAction?, onUpdate: Database.ForeignKeyAction?, deferred: Bool, indexed: Bool) {
        self.name = name
        self.table = table
        self.onDelete = onDelete
        self.onUpdate = onUpdate
        self.deferred = deferred
        self.indexed = indexed
    }

    /// In `t.primaryKey { ... }`: not null, and not indexed (the primary key is an index).
    func becomesPartOfPrimaryKey() {
        isNotNull = true
        indexed = false
    }

    /// The foreign key column(s) are `NOT NULL`.
    @discardableResult
    public func notNull() -> Self {
        isNotNull = true
        return self
    }

    /// The foreign key column(s) are unique: `teamId INTEGER UNIQUE REFERENCES team(id)`,
    /// or a unique index on the columns of a composite key.
    @discardableResult
    public func unique() -> Self {
        isUnique = true
        return self
    }
}

/// A column of a table definition; its modifiers chain:
/// `t.column("name", .text).notNull().unique().defaults(to: "Anonymous")`.
public final class ColumnDefinition {
    let name: String
    let type: Database.ColumnType?
    private let rawSQL: String?
    /// The clauses, each with its place: they are written in GRDB's order (`PRIMARY KEY`,
    /// `NOT NULL`, `UNIQUE`, `CHECK`, `DEFAULT`, `COLLATE`, `REFERENCES`, `GENERATED`),
    /// whatever the order of the calls.
    private var clauses: [(place: Place, sql: String)] = []
    /// References to a table's primary key, written once the key is known.
    private var keyReferences: [KeyReference] = []
    private(set) var isPrimaryKey = false
    private(set) var isIndexed = false

    enum Place: Int, Comparable {
        case primaryKey, notNull, unique, check, defaultValue, collation, references, generated
        static func < (lhs: Place, rhs: Place) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private struct KeyReference {
        var table: String
        var onDelete: Database.ForeignKeyAction?
        var onUpdate: Database.ForeignKeyAction?
        var deferred: Bool
    }

    init(name: String, type: Database.ColumnType?) {
        self.name = name
        self.type = type
        self.rawSQL = nil
    }

    init(sql: String) {
        self.name = ""
        self.type = nil
        self.rawSQL = sql
    }

    /// The column's SQL; `table` is the table it belongs to, `primaryKey` its primary key,
    /// for a reference to itself. A reference to another table names that table's primary
    /// key when the table exists, as GRDB writes it.
    func sql(_ db: Database, table: String, primaryKey: () throws -> [String]) throws -> String {
        if let rawSQL { return rawSQL }
        var clauses = self.clauses
        for reference in keyReferences {
            let columns: [String]?
            if reference.table.lowercased() == table.lowercased() {
                columns = try primaryKey()
            } else if try db.tableExists(reference.table) {
                columns = try db.primaryKey(reference.table).columns
            } else {
                columns = nil
            }
            clauses.append(
                (
                    .references,
                    Self.referencesClause(
                        table: reference.table, columns: columns, onDelete: reference.onDelete, onUpdate: reference.onUpdate,
                        deferred: reference.deferred)
                ))
        }
        // (A stable sort: clauses of one place keep the order of the calls.)
        let ordered = clauses.enumerated().sorted { ($0.element.place, $0.offset) < ($1.element.place, $1.offset) }.map(\.element.sql)
        return ([name.quotedDatabaseIdentifier] + (type.map { [$0.rawValue] } ?? []) + ordered).joined(separator: " ")
    }

    func hasClause(_ place: Place) -> Bool {
        clauses.contains { $0.place == place }
    }

    /// Adds a clause; one of a place that holds one (all but `CHECK` and `REFERENCES`)
    /// replaces the previous one: `notNull()` twice writes `NOT NULL` once.
    func append(_ place: Place, _ sql: String) {
        if place != .check, place != .references { clauses.removeAll { $0.place == place } }
        clauses.append((place, sql))
    }

    /// `PRIMARY KEY`, as GRDB spells it: `t.column("id", .integer).primaryKey()`.
    @discardableResult
    public func primaryKey(onConflict: Database.ConflictResolution? = nil, autoincrement: Bool = false) -> Self {
        isPrimaryKey = true
        append(.primaryKey, "PRIMARY KEY" + TableDefinition.conflictClause(onConflict) + (autoincrement ? " AUTOINCREMENT" : ""))
        return self
    }

    /// `NOT NULL`.
    @discardableResult
    public func notNull(onConflict: Database.ConflictResolution? = nil) -> Self {
        // (`ON CONFLICT ABORT` is the default, and GRDB does not write it.)
        append(.notNull, "NOT NULL" + TableDefinition.conflictClause(onConflict == .abort ? nil : onConflict))
        return self
    }

    /// `UNIQUE`.
    @discardableResult
    public func unique(onConflict: Database.ConflictResolution? = nil) -> Self {
        append(.unique, "UNIQUE" + TableDefinition.conflictClause(onConflict == .abort ? nil : onConflict))
        return self
    }

    /// `DEFAULT value`.
    @discardableResult
    public func defaults(to value: some SQLExpressible) -> Self {
        let isNull: Bool
        if case .value(let dbValue) = value.sqlExpression.node { isNull = dbValue.isNull } else { isNull = false }
        append(.defaultValue, "DEFAULT " + (isNull ? "NULL" : value.inlineSQL))
        return self
    }

    /// `DEFAULT (sql)`: `t.column("creationDate", .datetime).defaults(sql: "CURRENT_TIMESTAMP")`.
    @discardableResult
    public func defaults(sql: String) -> Self {
        // A keyword, a number or a string as GRDB writes it (`DEFAULT CURRENT_TIMESTAMP`);
        // an expression in parentheses, as SQLite requires.
        let isToken = sql.range(of: #"^([A-Za-z_]+|[+-]?[0-9.]+|'[^']*')$"#, options: .regularExpression) != nil
        append(.defaultValue, isToken ? "DEFAULT \(sql)" : "DEFAULT (\(sql))")
        return self
    }

    /// `CHECK (...)`, from the column: `t.column("score", .integer).check { $0 > 0 }`.
    @discardableResult
    public func check(_ condition: (Column) -> some SQLExpressible) -> Self {
        append(.check, "CHECK (\(condition(Column(name)).inlineSQL))")
        return self
    }

    /// `CHECK (...)` in SQL.
    @discardableResult
    public func check(sql: String) -> Self {
        append(.check, "CHECK (\(sql))")
        return self
    }

    /// `COLLATE ...`.
    @discardableResult
    public func collate(_ collation: Database.CollationName) -> Self {
        append(.collation, "COLLATE \(collation.rawValue)")
        return self
    }

    /// `REFERENCES table(column)`; the column defaults to the table's primary key.
    @discardableResult
    public func references(
        _ table: String, column: String? = nil,
        onDelete: Database.ForeignKeyAction? = nil, onUpdate: Database.ForeignKeyAction? = nil,
        deferred: Bool = false
    ) -> Self {
        if let column {
            append(.references, Self.referencesClause(table: table, columns: [column], onDelete: onDelete, onUpdate: onUpdate, deferred: deferred))
        } else {
            keyReferences.append(KeyReference(table: table, onDelete: onDelete, onUpdate: onUpdate, deferred: deferred))
        }
        return self
    }

    static func referencesClause(
        table: String, columns: [String]?, onDelete: Database.ForeignKeyAction?, onUpdate: Database.ForeignKeyAction?, deferred: Bool
    ) -> String {
        var clause = "REFERENCES \(table.quotedDatabaseIdentifier)"
        if let columns { clause += "(\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))" }
        if let onDelete { clause += " ON DELETE \(onDelete.rawValue)" }
        if let onUpdate { clause += " ON UPDATE \(onUpdate.rawValue)" }
        if deferred { clause += " DEFERRABLE INITIALLY DEFERRED" }
        return clause
    }

    /// Creates an index on the column, named `<table>_on_<column>`, as GRDB 7 names it.
    @discardableResult
    public func indexed() -> Self {
        isIndexed = true
        return self
    }

    /// A generated column: `GENERATED ALWAYS AS (sql) VIRTUAL` (or `STORED`).
    @discardableResult
    public func generatedAs(sql: String, _ qualification: GeneratedColumnQualification = .virtual) -> Self {
        append(.generated, "GENERATED ALWAYS AS (\(sql)) \(qualification.rawValue)")
        return self
    }

    /// A generated column from an expression: `.generatedAs(Column("score") + Column("bonus"))`.
    @discardableResult
    public func generatedAs(_ expression: some SQLExpressible, _ qualification: GeneratedColumnQualification = .virtual) -> Self {
        generatedAs(sql: expression.inlineSQL, qualification)
    }

    /// How a generated column is kept.
    public enum GeneratedColumnQualification: String, Sendable {
        case virtual = "VIRTUAL"
        case stored = "STORED"
    }
}
