/// Finds column indexes fast, for code that reads the same columns in the same order on
/// every row (records, `row["name"]` in a loop): it remembers the sequence of names asked
/// for, and predicts that the next name is the one that followed the previous one. A right
/// prediction costs one comparison; a wrong one, a search.
///
/// Rows of a statement share one (``ColumnIndexCache``); the decoder of `Decodable`
/// records has its own (see `RecordDecodingState`).
@usableFromInline
struct ColumnIndexPrediction {
    /// A name asked for, and its column index (-1: no such column).
    @usableFromInline
    struct Entry {
        @usableFromInline let name: String
        @usableFromInline let index: Int
        @usableFromInline init(name: String, index: Int) { self.name = name; self.index = index }
        @inlinable var columnIndex: Int? { index < 0 ? nil : index }
    }

    /// The names asked for, in the order they were asked.
    @usableFromInline var entries: [Entry] = []
    @usableFromInline var position = 0

    /// The number of names remembered at most, so that random access patterns cannot grow
    /// the cache without bound.
    private static var capacity: Int { 256 }

    init() {}

    /// Called when code starts reading a new row: the next name is predicted to be the
    /// first one again.
    @inlinable @inline(__always)
    mutating func rewind() { position = 0 }

    /// The index of the column `name`; `lookup` finds it when the prediction fails.
    @inlinable @inline(__always)
    mutating func index(of name: String, lookup: () -> Int?) -> Int? {
        let current = position
        if current < entries.count {
            let entry = entries[current]
            if entry.name == name {
                position = current + 1
                return entry.columnIndex
            }
        }
        return mispredictedIndex(of: name, lookup: lookup)
    }

    @usableFromInline
    mutating func mispredictedIndex(of name: String, lookup: () -> Int?) -> Int? {
        // A new row started without rewind, or another order: find the name in the sequence.
        if let known = entries.firstIndex(where: { $0.name == name }) {
            position = known + 1
            return entries[known].columnIndex
        }
        let index = lookup()
        if entries.count < Self.capacity {
            entries.append(Entry(name: name, index: index ?? -1))
            position = entries.count
        }
        return index
    }
}

/// The column lookups of the rows of one statement, shared by the rows of its cursors.
@usableFromInline
final class ColumnIndexCache {
    // Confined to the connection's queue, never accessed re-entrantly: no need for the
    // runtime's dynamic exclusivity checks, which cost more than the lookups themselves.
    @exclusivity(unchecked) @usableFromInline var prediction = ColumnIndexPrediction()

    init() {}
}

extension Statement {
    /// The column lookups of rows read from this statement.
    var columnIndexCache: ColumnIndexCache {
        if let cache = _columnIndexCache { return cache }
        let cache = ColumnIndexCache()
        _columnIndexCache = cache
        return cache
    }
}
