/// A format that prints one line per row, with values as SQL literals (as SQLite's
/// `quote()` writes them), separated by `,` by default.
///
/// ```swift
/// // 'Arthur',500
/// // 'Barbara',1000
/// try db.dumpRequest(Player.all(), format: .quote())
/// ```
public struct QuoteDumpFormat: Sendable {
    /// Whether the column names are printed before the first row, as SQL strings.
    public var header: Bool

    /// The text between two values.
    public var separator: String

    private var lines = SeparatedLines()

    /// A quote format.
    ///
    /// - Parameters:
    ///   - header: Whether the column names are printed before the first row, as SQL
    ///     strings.
    ///   - separator: The text between two values.
    public init(header: Bool = false, separator: String = ",") {
        self.header = header
        self.separator = separator
    }
}

extension QuoteDumpFormat: DumpFormat {
    /// Throws when SQLite can not quote the values (an interrupted connection).
    public mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        try lines.writeRow(
            statement, header: header, separator: separator, to: &stream,
            names: { names in try db.sqlLiterals(names.map { DatabaseValue(storage: .string($0)) }) },
            values: { values in try db.sqlLiterals(values.map(\.databaseValue)) })
    }

    public mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        lines.statementDidEnd()
    }
}

extension Database {
    /// The SQL literals of `values`, as SQLite's `quote()` writes them (SQLite, rather
    /// than Swift, knows how it prints a real exactly). Hidden from the trace: the
    /// application did not ask for this statement.
    func sqlLiterals(_ values: [DatabaseValue]) throws -> [String] {
        guard !values.isEmpty else { return [] }
        return try withStatementsHiddenFromTrace {
            let sql = "SELECT " + repeatElement("quote(?)", count: values.count).joined(separator: ", ")
            let statement = try cachedStatement(sql: sql)
            guard let row = try Row.fetchOne(statement, arguments: StatementArguments(values)) else { return [] }
            return try values.indices.map { try row.decode(String.self, atIndex: $0) }
        }
    }
}

extension DumpFormat where Self == QuoteDumpFormat {
    /// A format that prints one line per row, with values as SQL literals (as SQLite's
    /// `quote()` writes them), separated by `,` by default.
    ///
    /// ```swift
    /// // 'Arthur',500
    /// // 'Barbara',1000
    /// try db.dumpRequest(Player.all(), format: .quote())
    /// ```
    ///
    /// - Parameters:
    ///   - header: Whether the column names are printed before the first row, as SQL
    ///     strings.
    ///   - separator: The text between two values.
    public static func quote(header: Bool = false, separator: String = ",") -> Self {
        QuoteDumpFormat(header: header, separator: separator)
    }
}
