/// A full-text search pattern of FTS3 and FTS4 tables, checked by SQLite:
/// `Document.matching(FTS3Pattern(matchingAllTokensIn: "sqlite database"))`.
///
/// See <https://www.sqlite.org/fts3.html#full_text_index_queries>.
public struct FTS3Pattern: Sendable {
    /// The pattern, as SQLite reads it: `sqlite AND database`.
    public let rawPattern: String

    /// Creates a pattern from its raw text, and throws a `DatabaseError` if SQLite
    /// rejects it (`"AND"`, an unbalanced quote or parenthesis).
    ///
    /// - parameter rawPattern: the pattern, in the full-text query syntax of FTS3.
    public init(rawPattern: String) throws {
        // SQLite rejects a bad pattern when it runs a statement that matches it.
        try validatedPattern {
            try DatabaseQueue().inDatabase { db in
                try db.execute(sql: "CREATE VIRTUAL TABLE documents USING fts3()")
                _ = try Row.fetchAll(db, sql: "SELECT * FROM documents WHERE content MATCH ?", arguments: [rawPattern])
            }
        }
        self.rawPattern = rawPattern
    }

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

    private init?(tokensOf string: String, _ shape: FTSPatternShape) {
        guard let tokens = try? FTS3.tokenize(string, withTokenizer: .simple), !tokens.isEmpty else { return nil }
        try? self.init(rawPattern: shape.rawPattern(tokens))
    }
}

extension FTS3Pattern: DatabaseValueConvertible {
    /// The raw pattern, as text.
    public var databaseValue: DatabaseValue { rawPattern.databaseValue }

    /// The pattern stored as text, if SQLite accepts it.
    ///
    /// - parameter dbValue: the database value.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> FTS3Pattern? {
        String.fromDatabaseValue(dbValue).flatMap { try? FTS3Pattern(rawPattern: $0) }
    }
}

/// Runs the check of a pattern, and throws its error without the SQL and arguments of
/// the scratch database, which say nothing to the caller.
func validatedPattern(_ check: () throws -> Void) throws {
    do {
        try check()
    } catch let error as DatabaseError {
        throw DatabaseError(resultCode: error.extendedResultCode, message: error.message)
    }
}

/// The raw patterns that the initializers of ``FTS3Pattern`` and ``FTS5Pattern`` make
/// of the tokens of a text.
enum FTSPatternShape {
    case anyToken, allTokens, allPrefixes, phrase, prefixPhrase

    /// The raw pattern of `tokens` (not empty).
    func rawPattern(_ tokens: [String]) -> String {
        switch self {
        case .anyToken: tokens.joined(separator: " OR ")
        case .allTokens: tokens.joined(separator: " ")
        case .allPrefixes: tokens.map { $0 + "*" }.joined(separator: " ")
        case .phrase: "\"" + tokens.joined(separator: " ") + "\""
        case .prefixPhrase: "^\"" + tokens.joined(separator: " ") + "\""
        }
    }
}
