/// A full-text search pattern of FTS5 tables, checked by SQLite:
/// `Document.matching(FTS5Pattern(matchingAllTokensIn: "sqlite database"))`.
///
/// See <https://www.sqlite.org/fts5.html#full_text_query_syntax>.
public struct FTS5Pattern: Sendable {
    /// The pattern, as SQLite reads it: `sqlite AND database`.
    public let rawPattern: String

    /// A pattern that matches any token of `string` (nil if it has no token):
    /// `sqlite OR database`.
    ///
    /// - parameter string: the text to search.
    public init?(matchingAnyTokenIn string: String) {
        self.init(tokensOf: string, .anyToken)
    }

    /// A pattern that matches all tokens of `string`, in any order (nil if it has no
    /// token): `sqlite database`.
    ///
    /// - parameter string: the text to search.
    public init?(matchingAllTokensIn string: String) {
        self.init(tokensOf: string, .allTokens)
    }

    /// A pattern that matches words that start with each token of `string`, in any order
    /// (nil if it has no token): `sqlite* database*`.
    ///
    /// - parameter string: the text to search.
    public init?(matchingAllPrefixesIn string: String) {
        self.init(tokensOf: string, .allPrefixes)
    }

    /// A pattern that matches the tokens of `string` in a row (nil if it has no token):
    /// `"sqlite database"`.
    ///
    /// - parameter string: the text to search.
    public init?(matchingPhrase string: String) {
        self.init(tokensOf: string, .phrase)
    }

    /// A pattern that matches the tokens of `string` in a row at the start of a column
    /// (nil if it has no token): `^"sqlite database"`.
    ///
    /// - parameter string: the text to search.
    public init?(matchingPrefixPhrase string: String) {
        self.init(tokensOf: string, .prefixPhrase)
    }

    /// Creates a pattern from its raw text, and throws a `DatabaseError` if SQLite
    /// rejects it (`"AND"`, an unbalanced quote, a column filter on another column).
    ///
    /// - parameter rawPattern: the pattern, in the full-text query syntax of FTS5.
    /// - parameter allowedColumns: the columns that column filters may name (empty: none).
    public init(rawPattern: String, allowedColumns: [String] = []) throws {
        // SQLite rejects a bad pattern when it runs a statement that matches it.
        try validatedPattern {
            try DatabaseQueue().inDatabase { db in
                try db.create(virtualTable: "document", using: FTS5()) { t in
                    // A column name no pattern names, when no column is allowed.
                    for column in allowedColumns.isEmpty ? ["__grdb__"] : allowedColumns {
                        t.column(column)
                    }
                }
                _ = try Row.fetchOne(db, sql: "SELECT * FROM document WHERE document MATCH ?", arguments: [rawPattern])
            }
        }
        self.rawPattern = rawPattern
    }

    private init?(tokensOf string: String, _ shape: FTSPatternShape) {
        guard let tokens = try? FTS5.tokenize(query: string), !tokens.isEmpty else { return nil }
        try? self.init(rawPattern: shape.rawPattern(tokens))
    }
}

extension Database {
    /// Creates a pattern for the FTS5 table `table`, whose column filters may name its
    /// columns; throws a `DatabaseError` if SQLite rejects it.
    ///
    /// - parameter rawPattern: the pattern, in the full-text query syntax of FTS5.
    /// - parameter table: the FTS5 table.
    public func makeFTS5Pattern(rawPattern: String, forTable table: String) throws -> FTS5Pattern {
        try FTS5Pattern(rawPattern: rawPattern, allowedColumns: columns(in: table).map(\.name))
    }
}

extension FTS5Pattern: DatabaseValueConvertible {
    /// The raw pattern, as text.
    public var databaseValue: DatabaseValue { rawPattern.databaseValue }

    /// The pattern stored as text, if SQLite accepts it.
    ///
    /// - parameter dbValue: the database value.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS5Pattern? {
        String.fromDatabaseValue(dbValue).flatMap { try? FTS5Pattern(rawPattern: $0) }
    }
}
