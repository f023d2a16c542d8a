import CSQLite
import Foundation

/// What the broker needs to know of the schema, read when needed and forgotten when the
/// schema changes (a statement of this connection changed it, or SQLite compiled a
/// statement again because another connection did).
///
/// Read through the raw C API, so that reading it is not itself observed.
struct SchemaFacts {
    /// A table, as the schema spells it.
    struct Table {
        let name: String
        let schemaName: String
    }

    /// Identifies this reading, for what is cached with it.
    let version: Int
    /// Every table (not views), of every schema (main, temp, attached), by lowercased name.
    let tables: [String: Table]
    /// Lowercased names of virtual tables: their changes have no row callbacks.
    let virtualTables: Set<String>
    /// Lowercased names of the tables whose definition mentions REPLACE: inserts and updates
    /// may delete rows through REPLACE conflict resolution.
    let replaceTables: Set<String>
    /// Whether some trigger mentions REPLACE.
    let triggersMayReplace: Bool
    /// Lowercased names of the tables whose definition mentions WITHOUT: maybe `WITHOUT
    /// ROWID` tables, whose changes the update hook does not report.
    let withoutTables: Set<String>
    /// Whether some table or trigger mentions FAIL (conflict resolution or `RAISE(FAIL)`).
    let mentionsFail: Bool

    func mayReplace(tableKey: String) -> Bool {
        triggersMayReplace || replaceTables.contains(tableKey)
    }

    /// Whether the table may be a `WITHOUT ROWID` table, or is unknown.
    func mayLackRowID(tableKey: String) -> Bool {
        tables[tableKey] == nil || withoutTables.contains(tableKey)
    }

    /// The last version given, for all connections.
    private static let lastVersion = LockedState(0)

    /// Reads the schema; nil when it cannot be read.
    static func read(from connection: OpaquePointer) -> SchemaFacts? {
        guard let databases = rows(connection, "PRAGMA database_list") else { return nil }
        var tables: [String: Table] = [:]
        var virtualTables: Set<String> = []
        var replaceTables: Set<String> = []
        var withoutTables: Set<String> = []
        var triggersMayReplace = false
        var mentionsFail = false
        for database in databases {
            guard database.count > 1, let schemaName = database[1] else { continue }
            let master = schemaName == "temp" ? "sqlite_temp_master" : "sqlite_master"
            // The schema table itself: observers of it hear of schema changes.
            let schemaTable = Table(name: master, schemaName: schemaName)
            if tables[master] == nil { tables[master] = schemaTable }
            if schemaName == "main" { tables["sqlite_schema"] = schemaTable }
            if schemaName == "temp" { tables["sqlite_temp_schema"] = schemaTable }
            let sql = "SELECT type, name, sql FROM \(schemaName.quotedDatabaseIdentifier).\(master)"
            guard let objects = rows(connection, sql) else { return nil }
            for object in objects {
                guard object.count == 3, let type = object[0], let name = object[1] else { continue }
                let key = name.lowercased()
                let definition = object[2] ?? ""
                let mentionsReplace = definition.mentionsASCIIKeyword("replace")
                if definition.mentionsASCIIKeyword("fail") { mentionsFail = true }
                switch type {
                case "table":
                    // A temporary table hides a main table of the same name.
                    if tables[key] == nil || schemaName == "temp" {
                        tables[key] = Table(name: name, schemaName: schemaName)
                    }
                    if definition.startsWithASCIIKeyword("create virtual table") {
                        virtualTables.insert(key)
                    }
                    if mentionsReplace { replaceTables.insert(key) }
                    if definition.mentionsASCIIKeyword("without") { withoutTables.insert(key) }
                case "trigger":
                    if mentionsReplace { triggersMayReplace = true }
                default:
                    break
                }
            }
        }
        let version = lastVersion.withLock { last in
            last += 1
            return last
        }
        return SchemaFacts(
            version: version, tables: tables, virtualTables: virtualTables, replaceTables: replaceTables,
            triggersMayReplace: triggersMayReplace, withoutTables: withoutTables, mentionsFail: mentionsFail)
    }

    /// The columns of a table, as the schema spells them.
    static func columns(of table: Table, connection: OpaquePointer) -> [String] {
        let sql = "SELECT name FROM pragma_table_info(?1, ?2)"
        return rows(connection, sql, arguments: [table.name, table.schemaName])?.compactMap { $0.first ?? nil } ?? []
    }

    /// The rows of a query, as text; nil on error.
    static func rows(_ connection: OpaquePointer, _ sql: String, arguments: [String] = []) -> [[String?]]? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else { return nil }
        defer { sqlite3_finalize(statement) }
        for (index, argument) in arguments.enumerated() {
            sqlite3_bind_text(statement, CInt(index + 1), argument, -1, ripple_sqlite_transient())
        }
        var result: [[String?]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return result }
            guard code == SQLITE_ROW else { return nil }
            let count = sqlite3_column_count(statement)
            result.append(
                (0..<count).map { index in
                    sqlite3_column_text(statement, index).map { String(cString: $0) }
                })
        }
    }
}
