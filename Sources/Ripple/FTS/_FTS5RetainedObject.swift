/// Swift objects that FTS5 holds as C pointers (the user data of a custom tokenizer, and
/// its instances): retained when given to FTS5, released when FTS5 destroys them.
///
/// Unmanaged is unavoidable here: FTS5 stores `void *`. Invariant: a pointer is used only
/// between its `retain` and its one `release`; debug builds check it.
enum _FTS5RetainedObject {
    #if DEBUG
    /// The retained pointers (as integers).
    private static let live = LockedState<Set<UInt>>([])
    #endif

    /// Retains `object`, and returns its pointer.
    static func retain(_ object: AnyObject) -> UnsafeMutableRawPointer {
        let pointer = Unmanaged.passRetained(object).toOpaque()
        #if DEBUG
        let inserted = live.withLock { $0.insert(UInt(bitPattern: pointer)).inserted }
        assert(inserted, "FTS5 object retained twice")
        #endif
        return pointer
    }

    /// The object of a retained pointer.
    static func object(_ pointer: UnsafeMutableRawPointer) -> AnyObject {
        #if DEBUG
        assert(live.withLock { $0.contains(UInt(bitPattern: pointer)) }, "FTS5 object used after release")
        #endif
        return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Releases a retained pointer.
    static func release(_ pointer: UnsafeMutableRawPointer) {
        #if DEBUG
        let removed = live.withLock { $0.remove(UInt(bitPattern: pointer)) != nil }
        assert(removed, "FTS5 object released twice")
        #endif
        Unmanaged<AnyObject>.fromOpaque(pointer).release()
    }
}
