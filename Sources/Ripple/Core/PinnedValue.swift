/// A value that stays at one address for as long as this object lives, for C callbacks
/// that reach it through a context pointer, without counting references.
///
/// SQLite's row callbacks run for each changed row. Reaching a Swift object from their
/// context pointer (an unretained reference taken back) retains and releases it around the
/// call: with the broker and its execution, four atomic operations for each row
/// (measured: Benchmarks/README.md, "Shortcuts"). A pinned value is plain
/// memory: the callback reads and writes it in place.
///
/// Invariant: `pointer` is valid from `init` to `deinit`, and nothing else frees it. Whoever
/// hands the pointer to C takes it back before this object goes (the broker clears its
/// hooks when the connection closes, and holds the object until then). The pointer is
/// used on one thread at a time: the one of the owner's serial queue.
final class _PinnedValue<Value> {
    /// The value's address, valid for the lifetime of this object.
    let pointer: UnsafeMutablePointer<Value>

    init(_ value: Value) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: value)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
