/// What a row read in place by a cursor keeps from one record to the next, so that
/// decoding each record does not make decoders and scope rows again: with their
/// decoders, they keep the column indexes they predicted.
///
/// Used only by the thread that runs the access of the row's connection (see
/// `Row.cursorConnection`), after it checked so.
final class CursorRowReuse {
    /// The decoders of records decoded from the whole row while the row's own decoder is
    /// in use (`var book: Book` of a `BookInfo`), one per depth of nesting.
    private var nestedDecoders: [DatabaseRowDecoder] = []
    /// How many of `nestedDecoders` are in use.
    private var depth = 0
    /// A scope's row, and the names of the scopes on the way to it from the row, its own
    /// last (where its prefetched rows are).
    struct Scope {
        let row: Row
        let path: [String]
    }

    /// The row's scopes, by name, and the names that are no scope (nil).
    var scopes: [String: Scope?] = [:]

    /// Runs `body` with a decoder of `row` that is not in use as the row's
    /// `recordDecoder`, so that `init(row:)` of the nested record gets it.
    func withNestedDecoder<R>(of row: Row, _ body: () throws -> R) rethrows -> R {
        let outer = row.recordDecoder
        let level = depth
        if level == nestedDecoders.count { nestedDecoders.append(DatabaseRowDecoder(row: row, ownsRow: false, sharingPredictions: false)) }
        row.recordDecoder = nestedDecoders[level]
        depth = level + 1
        defer {
            row.recordDecoder = outer
            depth = level
        }
        return try body()
    }

    /// Gives back the states of the nested decoders, when their row ends.
    func releaseDecoders() {
        for decoder in nestedDecoders { decoder.state.release(generation: decoder.generation) }
    }
}
