/// What waits for savepoints to be released: observers are only told of changes that have
/// a chance to be committed.
///
/// One level per open savepoint, each with what happened since it began. Releasing a
/// savepoint hands its items to the level below; releasing the last one hands them out
/// for delivery. Rolling back to a savepoint drops what happened since it began, and keeps
/// it open, as SQLite does.
struct SavepointStack {
    /// Something an observer will be told when the savepoints are released.
    enum Item {
        /// `databaseWillChange(with:)` of a copied pre-update event.
        case willChange(DatabasePreUpdateEvent, ObserverEntry)
        /// `databaseDidChange(with:)`.
        case didChange(DatabaseEvent, ObserverEntry)
        /// A region observer's region was touched.
        case impact(ObserverEntry)
    }

    private var names: [String] = []
    private var levels: [[Item]] = []

    var isEmpty: Bool { names.isEmpty }
    var depth: Int { names.count }

    /// A savepoint begins.
    mutating func begin(_ name: String) {
        names.append(name.lowercased())
        levels.append([])
    }

    /// Adds an item to the innermost savepoint.
    mutating func append(_ item: Item) {
        precondition(!levels.isEmpty, "SavepointStack.append: no savepoint is open")
        levels[levels.count - 1].append(item)
    }

    mutating func append(contentsOf items: [Item]) {
        precondition(!levels.isEmpty || items.isEmpty, "SavepointStack.append: no savepoint is open")
        if !items.isEmpty { levels[levels.count - 1].append(contentsOf: items) }
    }

    /// `RELEASE name`: releases the most recent savepoint of that name and those above it.
    /// Returns the items to deliver when no savepoint remains open.
    mutating func release(_ name: String) -> [Item] {
        guard let index = names.lastIndex(of: name.lowercased()) else { return [] }
        let released = levels[index...].flatMap { $0 }
        names.removeSubrange(index...)
        levels.removeSubrange(index...)
        if levels.isEmpty { return released }
        levels[levels.count - 1].append(contentsOf: released)
        return []
    }

    /// `ROLLBACK TO name`: drops what happened since the most recent savepoint of that name
    /// began; that savepoint stays open, those above it are gone.
    mutating func rollback(to name: String) {
        guard let index = names.lastIndex(of: name.lowercased()) else { return }
        names.removeSubrange((index + 1)...)
        levels.removeSubrange((index + 1)...)
        levels[index].removeAll()
    }

    /// The transaction ends: every savepoint goes. Returns what they held.
    mutating func removeAll() -> [Item] {
        let items = levels.flatMap { $0 }
        names.removeAll()
        levels.removeAll()
        return items
    }
}
