/// A virtual table module, such as ``FTS3``, ``FTS4`` or ``FTS5``, that
/// `Database.create(virtualTable:options:using:_:)` turns into a `CREATE VIRTUAL TABLE`
/// statement.
///
/// ```swift
/// try db.create(virtualTable: "document", using: FTS4()) { t in
///     t.column("content")
/// }
/// ```
public protocol VirtualTableModule {
    /// The type of the object that the body of `create(virtualTable:...)` configures.
    associatedtype TableDefinition

    /// The module name, after `USING`: `fts4`.
    var moduleName: String { get }

    /// Returns a fresh table definition for the body of `create(virtualTable:...)`.
    ///
    /// - parameter configuration: how the table is created.
    func makeTableDefinition(configuration: VirtualTableConfiguration) -> TableDefinition

    /// The module arguments, between the parentheses after the module name (none: no
    /// parentheses).
    ///
    /// - parameter definition: the table definition, as the body left it.
    /// - parameter db: the connection that creates the table.
    func moduleArguments(for definition: TableDefinition, in db: Database) throws -> [String]

    /// Runs after the table is created, in the same savepoint: the place for triggers.
    ///
    /// - parameter db: the connection that created the table.
    /// - parameter tableName: the name of the new table.
    /// - parameter definition: the table definition.
    func database(_ db: Database, didCreate tableName: String, using definition: TableDefinition) throws
}

/// How a virtual table is created, given to `VirtualTableModule.makeTableDefinition(configuration:)`.
public struct VirtualTableConfiguration: Sendable {
    /// Whether the statement is `CREATE VIRTUAL TABLE IF NOT EXISTS`.
    var ifNotExists: Bool

    /// Whether the table goes in the temporary schema.
    var temporary: Bool
}

/// Options of `Database.create(virtualTable:options:using:)`.
public struct VirtualTableOptions: OptionSet, Sendable {
    /// The raw bits.
    public let rawValue: Int

    /// Creates options from raw bits.
    ///
    /// - parameter rawValue: the raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// No error when the table exists: `CREATE VIRTUAL TABLE IF NOT EXISTS`.
    public static let ifNotExists = VirtualTableOptions(rawValue: 1 << 0)

    /// Creates the table in the temporary schema: `CREATE VIRTUAL TABLE temp."name"`.
    public static let temporary = VirtualTableOptions(rawValue: 1 << 1)
}

extension Database {
    /// Creates a virtual table with a module and its arguments written in SQL:
    /// `try db.create(virtualTable: "vocab", using: "fts5vocab(document, row)")`.
    ///
    /// - parameter name: the table name.
    /// - parameter options: `.ifNotExists`, `.temporary`.
    /// - parameter module: the module and its arguments, as SQL.
    public func create(virtualTable name: String, options: VirtualTableOptions = [], using module: String) throws {
        try execute(sql: Self.createVirtualTableSQL(name, options: options, module: module))
    }

    /// Creates a virtual table with a module such as ``FTS4`` or ``FTS5``, configured by
    /// `body`. The table and what the module adds (triggers, for example) are created in
    /// one savepoint: all or nothing.
    ///
    /// ```swift
    /// try db.create(virtualTable: "book", using: FTS5()) { t in
    ///     t.column("title")
    ///     t.column("body")
    /// }
    /// ```
    ///
    /// - parameter tableName: the table name.
    /// - parameter options: `.ifNotExists`, `.temporary`.
    /// - parameter module: the module.
    /// - parameter body: configures the table definition of the module.
    public func create<Module: VirtualTableModule>(
        virtualTable tableName: String,
        options: VirtualTableOptions = [],
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil
    ) throws {
        let configuration = VirtualTableConfiguration(
            ifNotExists: options.contains(.ifNotExists),
            temporary: options.contains(.temporary))
        let definition = module.makeTableDefinition(configuration: configuration)
        try body?(definition)
        let arguments = try module.moduleArguments(for: definition, in: self)
        let moduleSQL =
            arguments.isEmpty
            ? module.moduleName
            : module.moduleName + "(" + arguments.joined(separator: ", ") + ")"
        let sql = Self.createVirtualTableSQL(tableName, options: options, module: moduleSQL)
        try inSavepoint {
            try execute(sql: sql)
            try module.database(self, didCreate: tableName, using: definition)
            return .commit
        }
    }

    /// Creates a virtual table with a module and its arguments written in SQL
    /// (the spelling of former GRDB versions).
    ///
    /// - parameter name: the table name.
    /// - parameter ifNotExists: no error when the table exists.
    /// - parameter module: the module and its arguments, as SQL.
    @_disfavoredOverload
    public func create(virtualTable name: String, ifNotExists: Bool = false, using module: String) throws {
        try create(virtualTable: name, options: ifNotExists ? .ifNotExists : [], using: module)
    }

    /// Creates a virtual table with a module, configured by `body` (the spelling of
    /// former GRDB versions).
    ///
    /// - parameter tableName: the table name.
    /// - parameter ifNotExists: no error when the table exists.
    /// - parameter module: the module.
    /// - parameter body: configures the table definition of the module.
    @_disfavoredOverload
    public func create<Module: VirtualTableModule>(
        virtualTable tableName: String,
        ifNotExists: Bool = false,
        using module: Module,
        _ body: ((Module.TableDefinition) throws -> Void)? = nil
    ) throws {
        try create(virtualTable: tableName, options: ifNotExists ? .ifNotExists : [], using: module, body)
    }

    private static func createVirtualTableSQL(_ name: String, options: VirtualTableOptions, module: String) -> String {
        var sql = "CREATE VIRTUAL TABLE "
        if options.contains(.ifNotExists) { sql += "IF NOT EXISTS " }
        if options.contains(.temporary) { sql += "temp." }
        return sql + name.quotedDatabaseIdentifier + " USING " + module
    }
}
