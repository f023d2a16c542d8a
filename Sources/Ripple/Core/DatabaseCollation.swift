import CSQLite
import Foundation

/// A custom string collation, written in Swift, for `ORDER BY`, comparisons and column
/// definitions.
///
/// Five collations are available on every connection, as in GRDB:
/// ``unicodeCompare``, ``caseInsensitiveCompare``, ``localizedCaseInsensitiveCompare``,
/// ``localizedCompare`` and ``localizedStandardCompare``.
///
/// ```swift
/// let players = try Player.order(Column("name").collating(.localizedCaseInsensitiveCompare)).fetchAll(db)
///
/// let reversed = DatabaseCollation("reversed") { lhs, rhs in rhs.compare(lhs) }
/// db.add(collation: reversed)
/// try db.create(table: "item") { t in t.column("name", .text).collate(reversed) }
/// ```
///
/// Add collations to every connection of a pool with `Configuration.prepareDatabase`.
public final class DatabaseCollation: Hashable, Sendable {
    /// The collation's name, as SQL spells it.
    public let name: String
    let compare: @Sendable (String, String) -> ComparisonResult

    /// A collation named `name`, that orders strings as `compare` does.
    public init(_ name: String, function compare: @escaping @Sendable (String, String) -> ComparisonResult) {
        self.name = name
        self.compare = compare
    }

    /// Collations are identified by name, as SQLite identifies them (case-insensitive).
    public static func == (lhs: DatabaseCollation, rhs: DatabaseCollation) -> Bool {
        lhs.name.lowercased() == rhs.name.lowercased()
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name.lowercased())
    }

    /// Compares strings by their Unicode scalars (`<` of `String`): `swiftCompare` in SQL.
    public static let unicodeCompare = DatabaseCollation("swiftCompare") { lhs, rhs in
        lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
    }
    /// `String.caseInsensitiveCompare`: `swiftCaseInsensitiveCompare` in SQL.
    public static let caseInsensitiveCompare = DatabaseCollation("swiftCaseInsensitiveCompare") { $0.caseInsensitiveCompare($1) }
    /// `String.localizedCaseInsensitiveCompare`: `swiftLocalizedCaseInsensitiveCompare` in SQL.
    public static let localizedCaseInsensitiveCompare = DatabaseCollation("swiftLocalizedCaseInsensitiveCompare") {
        $0.localizedCaseInsensitiveCompare($1)
    }
    /// `String.localizedCompare`: `swiftLocalizedCompare` in SQL.
    public static let localizedCompare = DatabaseCollation("swiftLocalizedCompare") { $0.localizedCompare($1) }
    /// `String.localizedStandardCompare`, the order of file names in the Finder:
    /// `swiftLocalizedStandardCompare` in SQL.
    public static let localizedStandardCompare = DatabaseCollation("swiftLocalizedStandardCompare") { $0.localizedStandardCompare($1) }

    /// The collations added to every connection: under GRDB's names, which the schemas of
    /// GRDB's databases hold (`COLLATE swiftLocalizedCompare`), and under the names
    /// earlier versions of Ripple gave them (`localizedCompare`), so that the databases
    /// they made still open.
    static let builtIn: [DatabaseCollation] = {
        let collations: [DatabaseCollation] = [
            .unicodeCompare, .caseInsensitiveCompare, .localizedCaseInsensitiveCompare, .localizedCompare, .localizedStandardCompare,
        ]
        let earlierNames = [
            "unicodeCompare", "caseInsensitiveCompare", "localizedCaseInsensitiveCompare", "localizedCompare", "localizedStandardCompare",
        ]
        return collations + zip(earlierNames, collations).map { DatabaseCollation($0, function: $1.compare) }
    }()
}

extension Database.CollationName {
    /// The name of `collation`.
    public init(_ collation: DatabaseCollation) {
        self.init(rawValue: collation.name)
    }
}

extension SQLSpecificExpressible {
    /// The expression compared with a custom collation.
    public func collating(_ collation: DatabaseCollation) -> SQLExpression {
        collating(Database.CollationName(collation))
    }
}

extension ColumnDefinition {
    /// `COLLATE ...`, with a custom collation.
    @discardableResult
    public func collate(_ collation: DatabaseCollation) -> Self {
        collate(Database.CollationName(collation))
    }
}

extension Database {
    /// Makes `collation` available to this connection's SQL; replaces a collation of the
    /// same name.
    public func add(collation: DatabaseCollation) {
        guard let sqliteConnection else { return }
        // SQLite keeps a retained reference to the collation, released when it replaces
        // it or closes the connection (the destructor below).
        let context = _CallbackContext.retained(collation)
        let code = sqlite3_create_collation_v2(
            sqliteConnection, collation.name, SQLITE_UTF8, context,
            { context, length1, bytes1, length2, bytes2 in
                guard let context else { return 0 }
                let collation = _CallbackContext<DatabaseCollation>.retainedObject(context)
                let lhs = String(decoding: UnsafeRawBufferPointer(start: bytes1, count: Int(length1)), as: UTF8.self)
                let rhs = String(decoding: UnsafeRawBufferPointer(start: bytes2, count: Int(length2)), as: UTF8.self)
                switch collation.compare(lhs, rhs) {
                case .orderedAscending: return -1
                case .orderedSame: return 0
                case .orderedDescending: return 1
                }
            },
            { context in
                guard let context else { return }
                _CallbackContext<DatabaseCollation>.release(context)
            })
        // On failure SQLite has called the destructor already.
        assert(code == SQLITE_OK || code == SQLITE_MISUSE || code == SQLITE_ERROR, "unexpected result \(code) from sqlite3_create_collation_v2")
    }

    /// Removes `collation` from this connection's SQL.
    public func remove(collation: DatabaseCollation) {
        guard let sqliteConnection else { return }
        sqlite3_create_collation_v2(sqliteConnection, collation.name, SQLITE_UTF8, nil, nil, nil)
    }
}
