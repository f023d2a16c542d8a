/// One observer registered with a connection's broker.
///
/// Entries are never reused: an observer removed and added again gets a new entry. An
/// entry removed while callbacks run (an observer that removes itself, or another one,
/// from a callback) is marked `isRemoved` at once, and gets no callback from then on, even
/// from a round of callbacks that is under way.
///
/// (Its fields are ordered so that it takes 80 bytes: the registry keeps one per
/// observation, W6m.)
final class ObserverEntry {
    /// Unique among the entries of one broker, in registration order.
    let id: Int
    /// The identity of the observer, kept for when a weakly held one is gone: the registry
    /// finds its entries by identity.
    let identity: ObjectIdentifier
    private weak var weakObserver: (any TransactionObserver)?
    private var strongObserver: (any TransactionObserver)?
    /// Set for Ripple's own region-based observers (region and value observations): the
    /// broker matches their region with what statements write, and never asks them
    /// `observes(eventsOfKind:)`.
    let regionObserver: RegionObserver?
    let extent: TransactionObservationExtent

    /// What the broker changes on the entry.
    struct Flags {
        /// Set when the entry leaves the registry.
        var isRemoved = false
        /// Set by `stopObservingDatabaseChangesUntilNextTransaction()`, until the
        /// transaction ends.
        var isStopped = false
        /// False once the observer showed it does not implement `databaseWillChange(with:)`.
        var wantsPreUpdateEvents = true
        /// Region observers: whether a change of the current transaction touched the
        /// region (outside of any savepoint, or in savepoints since released).
        var hasTransactionImpact = false
    }

    // Confined to the connection's queue; each access is a plain read or write, which
    // the optimizer proves exclusive (no runtime check in release builds).
    private var flags = Flags()

    var isRemoved: Bool {
        get { flags.isRemoved }
        set { flags.isRemoved = newValue }
    }
    var isStopped: Bool {
        get { flags.isStopped }
        set { flags.isStopped = newValue }
    }
    var wantsPreUpdateEvents: Bool {
        get { flags.wantsPreUpdateEvents }
        set { flags.wantsPreUpdateEvents = newValue }
    }
    var hasTransactionImpact: Bool {
        get { flags.hasTransactionImpact }
        set { flags.hasTransactionImpact = newValue }
    }

    init(id: Int, observer: any TransactionObserver, extent: TransactionObservationExtent) {
        self.id = id
        self.identity = ObjectIdentifier(observer)
        self.extent = extent
        regionObserver = observer as? RegionObserver
        switch extent {
        case .observerLifetime: weakObserver = observer
        case .nextTransaction, .databaseLifetime: strongObserver = observer
        }
    }

    /// Whether this is the entry of the object of `identity` (alive, and not released).
    func isEntry(of identity: ObjectIdentifier) -> Bool {
        if let strongObserver { return ObjectIdentifier(strongObserver) == identity }
        if let weakObserver { return ObjectIdentifier(weakObserver) == identity }
        return false
    }

    /// The observer, unless it was deallocated (or the entry removed).
    var observer: (any TransactionObserver)? {
        if isRemoved { return nil }
        return strongObserver ?? weakObserver
    }

    /// The observer, unless it was deallocated, the entry removed, or the observer stopped
    /// until the next transaction.
    var observerUnlessStopped: (any TransactionObserver)? {
        if isStopped { return nil }
        return observer
    }

    /// Whether `entries` holds this very entry (under its identity).
    func isRegistered(in entries: [ObjectIdentifier: ObserverEntry]) -> Bool {
        entries[identity] === self
    }

    /// Lets the observer go: called when the entry leaves the registry.
    func release() {
        isRemoved = true
        strongObserver = nil
        weakObserver = nil
    }
}

/// The observers of a connection: who observes, in registration order, and an index of the
/// region observers by table and rowid.
///
/// Every operation costs the same whatever the number of region observers (Ripple's
/// value and region observations): they are found by identity, and removed from the index
/// alone; only the application's observers, usually few, are kept in a list, in
/// registration order. Starting and cancelling n observations costs n, not n² (W6m,
/// `ObserverRegistryTests`).
///
/// Mutations replace the arrays that loops may be walking: a loop walks the array it
/// started with, and checks `isRemoved` before each callback.
struct ObserverRegistry {
    /// The registered entries, by the identity of their observer. (A weakly held observer
    /// that was deallocated keeps its entry until it is purged; an object made later at the
    /// same address then takes the identity, and the dead entry stays in `userEntries`
    /// alone, until purged.)
    private var entriesByIdentity: [ObjectIdentifier: ObserverEntry] = [:]
    /// The entries of application observers, in registration order (the order of their
    /// callbacks), asked `observes(eventsOfKind:)` before each statement that may write.
    private(set) var userEntries: [ObserverEntry] = []
    /// The region observers, by what their region watches.
    private(set) var regionIndex = RegionIndex()
    private var lastID = 0
    /// Incremented by every change of the entries or of the region index: what was
    /// derived from them (a statement's kept execution) is valid while it stays the same.
    private(set) var generation = 0

    var isEmpty: Bool { entriesByIdentity.isEmpty && userEntries.isEmpty }

    /// The entries of region observers, in no particular order.
    var regionEntries: some Sequence<ObserverEntry> {
        entriesByIdentity.values.lazy.filter { $0.regionObserver != nil }
    }

    /// Every entry, in registration order (sorted on each call: for tests).
    var entries: [ObserverEntry] {
        var all = Array(entriesByIdentity.values)
        // Dead application entries whose identity was taken by a later object.
        for entry in userEntries where !entry.isRegistered(in: entriesByIdentity) { all.append(entry) }
        return all.sorted { $0.id < $1.id }
    }

    /// Adds an observer; nothing when it is registered already.
    ///
    /// Ripple's own region observers are added once each, by construction (a value or
    /// region observation registers when it starts).
    mutating func add(_ observer: any TransactionObserver, extent: TransactionObservationExtent) {
        // (Only `remove(_:)` removes region observers: none leaves with a transaction.)
        assert(!(observer is RegionObserver) || extent == .databaseLifetime, "region observers are held for the connection's lifetime")
        let identity = ObjectIdentifier(observer)
        if let existing = entriesByIdentity[identity], existing.isEntry(of: identity), !existing.isRemoved {
            assert(!(observer is RegionObserver), "a region observer is added once")
            return
        }
        lastID += 1
        generation += 1
        let entry = ObserverEntry(id: lastID, observer: observer, extent: extent)
        entriesByIdentity[identity] = entry
        if let regionObserver = entry.regionObserver {
            regionIndex.insert(entry, region: regionObserver.region)
        } else {
            userEntries.append(entry)
        }
    }

    /// Removes the entry of `observer`, and returns it (nil when it has none): the caller
    /// releases it (see ``removeUserEntries(where:)``).
    mutating func remove(_ observer: any TransactionObserver) -> ObserverEntry? {
        let identity = ObjectIdentifier(observer)
        guard let entry = entriesByIdentity[identity], entry.isEntry(of: identity) else { return nil }
        generation += 1
        entriesByIdentity[identity] = nil
        if let regionObserver = entry.regionObserver {
            regionIndex.remove(entry, region: regionObserver.region)
        } else {
            userEntries.removeAll { $0 === entry }
        }
        return entry
    }

    /// Removes the application observers' entries that match, and returns them; nothing
    /// changes when none does. (Region observers are removed by `remove(_:)` alone: they
    /// are held strongly, and never registered for the next transaction only.)
    ///
    /// The removed entries keep their observer: the caller releases them (`release()`),
    /// once this mutation is over, since releasing an observer may run its `deinit`, which
    /// may add or remove observers. Entries kept for one last callback are released later.
    @discardableResult
    mutating func removeUserEntries(where shouldRemove: (ObserverEntry) -> Bool) -> [ObserverEntry] {
        guard userEntries.contains(where: shouldRemove) else { return [] }
        generation += 1
        var removed: [ObserverEntry] = []
        var kept: [ObserverEntry] = []
        kept.reserveCapacity(userEntries.count)
        for entry in userEntries {
            if shouldRemove(entry) {
                // (Unless the identity now belongs to a later object's entry.)
                if entry.isRegistered(in: entriesByIdentity) { entriesByIdentity[entry.identity] = nil }
                removed.append(entry)
            } else {
                kept.append(entry)
            }
        }
        userEntries = kept
        return removed
    }

    /// Removes observers that were deallocated; the caller releases the entries returned.
    mutating func purgeDeallocatedObservers() -> [ObserverEntry] {
        removeUserEntries { $0.observer == nil }
    }

    /// Changes the region of a region observer, and its place in the index.
    mutating func setRegion(_ region: DatabaseRegion, of observer: RegionObserver) {
        guard observer.region != region else { return }
        generation += 1
        if let entry = entriesByIdentity[ObjectIdentifier(observer)], entry.regionObserver === observer {
            regionIndex.remove(entry, region: observer.region)
            regionIndex.insert(entry, region: region)
        }
        observer.region = region
    }

    /// The region observers that a change of the schema notifies, whatever their region
    /// (see ``RegionObserver/observesSchemaChanges``): found among all entries, since
    /// schema changes are rare.
    var schemaObservers: [ObserverEntry] {
        entriesByIdentity.values.filter { $0.regionObserver?.observesSchemaChanges == true && !$0.isRemoved }
    }

    /// The entry of `observer`, if registered.
    func entry(of observer: any TransactionObserver) -> ObserverEntry? {
        let identity = ObjectIdentifier(observer)
        guard let entry = entriesByIdentity[identity], entry.isEntry(of: identity), !entry.isRemoved else { return nil }
        return entry
    }
}

/// Region observers indexed by what their region watches, so that a statement or a row
/// change finds the observers it may concern without looking at the others.
struct RegionIndex {
    /// The observers of one table.
    struct TableWatchers {
        /// Observers of the whole table (every row), with the columns they watch (nil:
        /// all), by entry id.
        var wholeTable: [Int: (entry: ObserverEntry, columns: Set<String>?)] = [:]
        /// Observers of some rows, with the columns they watch, by entry id.
        var someRows: [Int: (entry: ObserverEntry, columns: Set<String>?)] = [:]
        /// The ids of the observers of each watched rowid.
        var idsByRowID: [Int64: RowWatcherIDs] = [:]

        var isEmpty: Bool { wholeTable.isEmpty && someRows.isEmpty }
    }

    /// Observers of the full database, by entry id.
    private(set) var fullDatabase: [Int: ObserverEntry] = [:]
    /// Observers of each table, by lowercased table name.
    private(set) var tables: [String: TableWatchers] = [:]

    var isEmpty: Bool { fullDatabase.isEmpty && tables.isEmpty }

    mutating func insert(_ entry: ObserverEntry, region: DatabaseRegion) {
        guard let regionTables = region.tables else {
            fullDatabase[entry.id] = entry
            return
        }
        // (Mutated in place: a copy of a table's watchers, mutated then stored back, would
        // copy its dictionaries for each observer added, and starting n observations of
        // one table would cost n².)
        for (table, tableRegion) in regionTables.lazy.map({ ($0.key, $0.region) }) {
            if let rowIDs = tableRegion.rowIDs {
                tables[table, default: TableWatchers()].someRows[entry.id] = (entry, tableRegion.columns)
                for rowID in rowIDs {
                    if tables[table]!.idsByRowID[rowID]?.append(entry.id) == nil {
                        tables[table]!.idsByRowID[rowID] = .one(entry.id)
                    }
                }
            } else {
                tables[table, default: TableWatchers()].wholeTable[entry.id] = (entry, tableRegion.columns)
            }
        }
    }

    mutating func remove(_ entry: ObserverEntry, region: DatabaseRegion) {
        guard let regionTables = region.tables else {
            fullDatabase[entry.id] = nil
            return
        }
        for (table, tableRegion) in regionTables.lazy.map({ ($0.key, $0.region) }) {
            guard tables[table] != nil else { continue }
            if let rowIDs = tableRegion.rowIDs {
                tables[table]!.someRows[entry.id] = nil
                for rowID in rowIDs {
                    if tables[table]!.idsByRowID[rowID]?.remove(entry.id) == false { tables[table]!.idsByRowID[rowID] = nil }
                }
            } else {
                tables[table]!.wholeTable[entry.id] = nil
            }
            if tables[table]!.isEmpty { tables[table] = nil }
        }
    }
}

/// The ids of the observers of one rowid, in the order they came. Most watched rowids have
/// one observer, kept without an array (an array is an allocation per watched row, W6m).
enum RowWatcherIDs: Sequence {
    case one(Int)
    case many([Int])

    mutating func append(_ id: Int) {
        switch self {
        case .one(let first):
            self = .many([first, id])
        case .many(var ids):
            self = .one(0)  // (lets `ids` be uniquely referenced)
            ids.append(id)
            self = .many(ids)
        }
    }

    /// Removes `id`; returns whether an id is left.
    mutating func remove(_ id: Int) -> Bool {
        switch self {
        case .one(let only):
            return only != id
        case .many(var ids):
            self = .one(0)  // (lets `ids` be uniquely referenced)
            ids.removeAll { $0 == id }
            switch ids.count {
            case 0: return false
            case 1: self = .one(ids[0])
            default: self = .many(ids)
            }
            return true
        }
    }

    struct Iterator: IteratorProtocol {
        fileprivate let ids: RowWatcherIDs
        fileprivate var index = 0

        mutating func next() -> Int? {
            defer { index += 1 }
            switch ids {
            case .one(let id): return index == 0 ? id : nil
            case .many(let ids): return index < ids.count ? ids[index] : nil
            }
        }
    }

    func makeIterator() -> Iterator { Iterator(ids: self) }
}
