/// The rowids of a table in a ``DatabaseRegion``: one rowid is kept inline, more in a set.
///
/// Most rowid-restricted regions are those of one-row observations (`filter(key:)`), and
/// every observation keeps its region: a `Set<Int64>` of one element is an allocation of
/// 80 bytes, W6m.
///
/// Invariant: a set of exactly one rowid is always `.one` (so that equality and hashing
/// do not depend on how the set was made); checked by `assert` in debug builds.
struct RowIDSet: Hashable, Sendable, Sequence, ExpressibleByArrayLiteral {
    fileprivate enum Storage: Hashable, Sendable {
        case one(Int64)
        case many(Set<Int64>)
    }

    private let storage: Storage

    init(_ rowIDs: some Sequence<Int64>) {
        let set = rowIDs as? Set<Int64> ?? Set(rowIDs)
        storage = set.count == 1 ? .one(set.first!) : .many(set)
        assertInvariant()
    }

    init(arrayLiteral rowIDs: Int64...) {
        self.init(rowIDs)
    }

    private func assertInvariant() {
        if case .many(let set) = storage { assert(set.count != 1, "one rowid is kept inline") }
    }

    var isEmpty: Bool {
        if case .many(let set) = storage { return set.isEmpty }
        return false
    }

    var count: Int {
        switch storage {
        case .one: return 1
        case .many(let set): return set.count
        }
    }

    func contains(_ rowID: Int64) -> Bool {
        switch storage {
        case .one(let only): return only == rowID
        case .many(let set): return set.contains(rowID)
        }
    }

    func union(_ other: RowIDSet) -> RowIDSet {
        switch (storage, other.storage) {
        case let (.one(a), .one(b)) where a == b: return self
        case let (.many(a), .many(b)): return RowIDSet(a.union(b))
        case let (.one(id), .many(set)), let (.many(set), .one(id)): return RowIDSet(set.union(CollectionOfOne(id)))
        case let (.one(a), .one(b)): return RowIDSet([a, b])
        }
    }

    func intersection(_ other: RowIDSet) -> RowIDSet {
        switch (storage, other.storage) {
        case let (.many(a), .many(b)): return RowIDSet(a.intersection(b))
        case let (.one(id), _): return other.contains(id) ? self : RowIDSet([])
        case let (_, .one(id)): return contains(id) ? other : RowIDSet([])
        }
    }

    struct Iterator: IteratorProtocol {
        private enum Base {
            case one(Int64?)
            case many(Set<Int64>.Iterator)
        }

        private var base: Base

        fileprivate init(_ storage: Storage) {
            switch storage {
            case .one(let only): base = .one(only)
            case .many(let set): base = .many(set.makeIterator())
            }
        }

        mutating func next() -> Int64? {
            switch base {
            case .one(let only):
                base = .one(nil)
                return only
            case .many(var iterator):
                let next = iterator.next()
                base = .many(iterator)
                return next
            }
        }
    }

    func makeIterator() -> Iterator { Iterator(storage) }
}
