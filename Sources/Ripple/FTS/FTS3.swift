import Foundation

/// The FTS3 full-text search module, for `Database.create(virtualTable:using:)`.
///
/// ```swift
/// try db.create(virtualTable: "document", using: FTS3()) { t in
///     t.tokenizer = .porter
///     t.column("content")
/// }
/// ```
///
/// See <https://www.sqlite.org/fts3.html>.
public struct FTS3: Sendable {
    /// How the `unicode61` tokenizer treats diacritics.
    public enum Diacritics: Sendable {
        /// Diacritics are kept: "e" does not match "é".
        case keep
        /// Diacritics are removed from latin script characters, as SQLite did before 3.27.
        case removeLegacy
        /// Diacritics are removed from all characters (`remove_diacritics=2`).
        case remove
    }

    /// Creates the FTS3 module.
    public init() {}

    /// The tokens of `string`, as the tokenizer cuts them, in order:
    /// `try FTS3.tokenize("SQLite database")` is `["sqlite", "database"]`.
    ///
    /// - parameter string: the text to cut in tokens.
    /// - parameter tokenizer: the tokenizer (`.simple` unless told).
    public static func tokenize(_ string: String, withTokenizer tokenizer: FTS3TokenizerDescriptor = .simple) throws -> [String] {
        // The fts3tokenize table cuts text as an FTS3/FTS4 table with that tokenizer does.
        let tokenizerSQL = ([tokenizer.name] + tokenizer.arguments.map { "\"\($0)\"" }).joined(separator: ", ")
        return try DatabaseQueue().inDatabase { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE tokens USING fts3tokenize(\(tokenizerSQL))")
            // Tokenizers may cut inside a UTF-8 sequence (porter does): such bytes are
            // repaired with U+FFFD rather than rejected.
            let tokens = try Data.fetchAll(db, sql: "SELECT CAST(token AS BLOB) FROM tokens WHERE input = ? ORDER BY position", arguments: [string])
            return tokens.map { String(decoding: $0, as: UTF8.self) }
        }
    }
}

extension FTS3: VirtualTableModule {
    /// `fts3`.
    public var moduleName: String { "fts3" }

    /// A fresh table definition.
    ///
    /// - parameter configuration: how the table is created.
    public func makeTableDefinition(configuration: VirtualTableConfiguration) -> FTS3TableDefinition {
        FTS3TableDefinition()
    }

    /// The columns, then the tokenizer.
    ///
    /// - parameter definition: the table definition.
    /// - parameter db: the connection that creates the table.
    public func moduleArguments(for definition: FTS3TableDefinition, in db: Database) -> [String] {
        var arguments = definition.columns
        if let tokenizer = definition.tokenizer {
            arguments.append(tokenizer.tokenizeArgument)
        }
        return arguments
    }

    /// Does nothing: an FTS3 table needs nothing more.
    ///
    /// - parameter db: the connection that created the table.
    /// - parameter tableName: the name of the new table.
    /// - parameter definition: the table definition.
    public func database(_ db: Database, didCreate tableName: String, using definition: FTS3TableDefinition) {}
}

/// The definition of an FTS3 table, configured in the body of
/// `Database.create(virtualTable:using:_:)`.
public final class FTS3TableDefinition {
    fileprivate var columns: [String] = []

    /// The tokenizer (nil: SQLite's default, `simple`).
    public var tokenizer: FTS3TokenizerDescriptor?

    init() {}

    /// Appends a column.
    ///
    /// - parameter name: the column name.
    public func column(_ name: String) {
        columns.append(name)
    }
}

// A mutable class, configured by one thread in the body of create(virtualTable:).
@available(*, unavailable)
extension FTS3TableDefinition: Sendable {}
