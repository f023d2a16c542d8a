import Foundation
import Ripple

/// The schema of the todo list and the writes it accepts. The writes take a `Database`,
/// so that the server runs them in ``LiveHub/write(_:)`` (which returns the commit's
/// event id) and the command line in a plain write, in another process.
public enum TodoStore {
    /// What a write refuses.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// A title that is empty once trimmed.
        case emptyTitle
        /// No todo has this id.
        case notFound(Int64)

        /// A sentence for the response or the terminal.
        public var description: String {
            switch self {
            case .emptyTitle: "a todo needs a title"
            case .notFound(let id): "no todo has id \(id)"
            }
        }
    }

    /// Opens the database file at `path` (created if needed) in WAL mode, migrated.
    public static func openPool(path: String) throws -> DatabasePool {
        let pool = try DatabasePool(path: path)
        try migrator.migrate(pool)
        return pool
    }

    /// The schema. A migration that shipped never changes: the next change is a new one.
    public static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "todo") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
                t.column("done", .boolean).notNull().defaults(to: false)
            }
        }
        return migrator
    }

    /// Every todo, in the order they were added.
    public static let all = Todo.order(Todo.Columns.id)

    /// Adds a todo titled `title`, and returns it with its id.
    public static func add(_ title: String, _ db: Database) throws -> Todo {
        let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !title.isEmpty else { throw Failure.emptyTitle }
        return try Todo(title: title).inserted(db)
    }

    /// Marks the todo of `id` done, or not done, and returns it.
    public static func toggle(_ id: Int64, _ db: Database) throws -> Todo {
        guard var todo = try Todo.fetchOne(db, key: id) else { throw Failure.notFound(id) }
        todo.done.toggle()
        try todo.update(db)
        return todo
    }

    /// Deletes the todo of `id`.
    public static func delete(_ id: Int64, _ db: Database) throws {
        guard try Todo.deleteOne(db, key: id) else { throw Failure.notFound(id) }
    }

    /// Deletes the todos that are done, and returns how many.
    public static func clearDone(_ db: Database) throws -> Int {
        try Todo.filter(Todo.Columns.done == true).deleteAll(db)
    }
}
