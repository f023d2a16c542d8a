/// Finds column indexes by name fast, for code that reads the same columns in the same
/// order on every row (records, `row["name"]` in a loop): it remembers the sequence of names
/// asked for, and predicts that the next name is the one that followed the previous one.
/// A right prediction costs one string comparison; a wrong one, a search.
@usableFromInline
final class ColumnIndexCache {
    // Confined to the connection's queue, never accessed re-entrantly: no need for the
    // runtime's dynamic exclusivity checks, which cost more than the lookups themselves.
    @exclusivity(unchecked) @usableFromInline var names: [String] = []
    @exclusivity(unchecked) @usableFromInline var indexes: [Int?] = []
    @exclusivity(unchecked) @usableFromInline var position = 0
    private let lookup: (String) -> Int?

    /// The number of names remembered at most, so that random access patterns cannot grow
    /// the cache without bound.
    private static let capacity = 256

    init(lookup: @escaping (String) -> Int?) {
        self.lookup = lookup
    }

    /// Called when code starts reading a new row: the next name is predicted to be the
    /// first one again.
    func rewind() { position = 0 }

    @inlinable @inline(__always)
    func index(of name: String) -> Int? {
        let current = position
        if current < names.count, names[current] == name {
            position = current + 1
            return indexes[current]
        }
        return mispredictedIndex(of: name)
    }

    @usableFromInline
    func mispredictedIndex(of name: String) -> Int? {
        // A new row started without rewind, or another order: find the name in the sequence.
        if let known = names.firstIndex(of: name) {
            position = known + 1
            return indexes[known]
        }
        let index = lookup(name)
        if names.count < Self.capacity {
            names.append(name)
            indexes.append(index)
            position = names.count
        }
        return index
    }
}

extension Statement {
    /// The column lookups of rows read from this statement.
    var columnIndexCache: ColumnIndexCache {
        if let cache = _columnIndexCache { return cache }
        let cache = ColumnIndexCache { [unowned self] name in self.index(ofColumn: name) }
        _columnIndexCache = cache
        return cache
    }
}
