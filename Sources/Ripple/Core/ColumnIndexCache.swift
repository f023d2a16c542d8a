/// Finds column indexes fast, for code that reads the same columns in the same order on
/// every row (records, `row["name"]` in a loop): it remembers the sequence of columns asked
/// for, and predicts that the next one is the one that followed the previous one. A right
/// prediction costs one comparison; a wrong one, a search.
///
/// Columns are asked for by name (`ColumnIndexPrediction`: rows of a statement share one,
/// in ``ColumnIndexCache``), or by coding key (`CodingKeyPrediction`, for the decoder of
/// `Decodable` records).
@usableFromInline
struct IndexPrediction<Identity: Equatable> {
    /// A column asked for, and its index (-1: no such column).
    @usableFromInline
    struct Entry {
        @usableFromInline let identity: Identity
        @usableFromInline let index: Int
        @usableFromInline init(identity: Identity, index: Int) {
            self.identity = identity
            self.index = index
        }
        @inlinable var columnIndex: Int? { index < 0 ? nil : index }
    }

    /// The columns asked for, in the order they were asked.
    @usableFromInline var entries: [Entry] = []
    /// The entry predicted next. (Unsigned: the compiler then knows that it is no negative
    /// array index, and checks only its upper bound, once. At most `capacity`.)
    @usableFromInline var position: UInt32 = 0

    /// The number of columns remembered at most, so that random access patterns cannot
    /// grow the cache without bound.
    @usableFromInline static var capacity: Int { 256 }

    init() {}

    /// Called when code starts reading a new row: the next column is predicted to be the
    /// first one again.
    @inlinable @inline(__always)
    mutating func rewind() { position = 0 }

    /// The index of the column `identity`; `lookup` finds it when the prediction fails.
    @inlinable @inline(__always)
    mutating func index(of identity: Identity, lookup: () -> Int?) -> Int? {
        let current = Int(position)
        if current < entries.count {
            let entry = entries[current]
            if entry.identity == identity {
                // (current < entries.count ≤ capacity: no overflow.)
                position = UInt32(truncatingIfNeeded: current &+ 1)
                return entry.columnIndex
            }
        }
        return mispredictedIndex(of: identity, lookup: lookup)
    }

    // Specialized in the caller (no generic metadata on the miss path), kept out of line.
    @inlinable @inline(never)
    mutating func mispredictedIndex(of identity: Identity, lookup: () -> Int?) -> Int? {
        // A new row started without rewind, or another order: find the column in the sequence.
        if let known = entries.firstIndex(where: { $0.identity == identity }) {
            position = UInt32(known + 1)
            return entries[known].columnIndex
        }
        let index = lookup()
        if entries.count < Self.capacity {
            entries.append(Entry(identity: identity, index: index ?? -1))
            position = UInt32(entries.count)
        }
        return index
    }
}

/// Column indexes predicted by column name.
@usableFromInline
typealias ColumnIndexPrediction = IndexPrediction<String>

/// The column lookups of the rows of one statement, shared by the rows of its cursors:
/// confined to the connection's queue, never reached re-entrantly, and read at each
/// lookup (a box itself, so that a lookup reads its state with no indirection).
@usableFromInline
typealias ColumnIndexCache = _ExclusiveAccessBox<ColumnIndexCacheState>

extension _ExclusiveAccessBox where Value == ColumnIndexCacheState {
    /// The lookups of the `Decodable` records (see ``ColumnIndexCacheState``).
    var recordPredictions: RecordColumnPredictions { value.recordPredictions }
}

/// The lookups of a ``ColumnIndexCache``.
@usableFromInline
struct ColumnIndexCacheState {
    @usableFromInline var prediction = ColumnIndexPrediction()
    /// The lookups of the `Decodable` records decoded from the statement's rows, kept from
    /// one cursor to the next (see `RecordDecodingStorage`): a request fetched again (an
    /// observation's) finds its columns predicted from its first record on.
    var recordPredictions = RecordColumnPredictions()

    @usableFromInline init() {}
}

/// The column lookups of `Decodable` records: by coding key, and by name (keys that are
/// not identified by value, and the names the keys give).
struct RecordColumnPredictions {
    var byName = ColumnIndexPrediction()
    var byKey = CodingKeyPrediction()
}

extension Statement {
    /// The column lookups of rows read from this statement.
    var columnIndexCache: ColumnIndexCache {
        if let cache = state.columnIndexCache { return cache }
        let cache = ColumnIndexCache(ColumnIndexCacheState())
        state.columnIndexCache = cache
        return cache
    }
}
