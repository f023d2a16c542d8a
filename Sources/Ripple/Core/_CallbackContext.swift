import Foundation

/// An object that a C callback reaches through its context pointer: the one place where
/// Ripple turns objects into raw pointers and back.
///
/// - An **unretained** context does not keep its object alive: the object's owner removes
///   the callback (a hook, the authorizer, a trace) before the object goes, and calls
///   ``revoke(_:)`` then.
/// - A **retained** context holds one reference, given back once, by ``release(_:)`` (a
///   destructor that SQLite calls) or ``takeRetained(_:)`` (a thread that starts).
///
/// In debug builds, each unretained context is registered until it is revoked, and each
/// use asserts that it still is: a callback that outlives the owner's promise stops at the
/// assert instead of reading freed memory.
enum _CallbackContext<Object: AnyObject> {
    /// A pointer to `object` that does not retain it.
    static func unretained(_ object: Object) -> UnsafeMutableRawPointer {
        let pointer = Unmanaged.passUnretained(object).toOpaque()
        #if DEBUG
        _CallbackContextRegistry.shared.withLock { _ = $0.insert(pointer) }
        #endif
        return pointer
    }

    /// The object of an unretained context, whose callback was not removed yet.
    static func object(_ pointer: UnsafeRawPointer?) -> Object {
        guard let pointer else { preconditionFailure("a C callback ran without its context") }
        #if DEBUG
        assert(_CallbackContextRegistry.shared.withLock { $0.contains(UnsafeMutableRawPointer(mutating: pointer)) },
               "a C callback ran after its context was revoked")
        #endif
        return Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// The owner removed the callback of an unretained context: it must not run again.
    static func revoke(_ object: Object) {
        #if DEBUG
        let pointer = Unmanaged.passUnretained(object).toOpaque()
        _CallbackContextRegistry.shared.withLock { _ = $0.remove(pointer) }
        #endif
    }

    /// A pointer that holds one reference to `object`, until ``release(_:)`` or
    /// ``takeRetained(_:)``.
    static func retained(_ object: Object) -> UnsafeMutableRawPointer {
        Unmanaged.passRetained(object).toOpaque()
    }

    /// The object of a retained context, which still holds its reference.
    static func retainedObject(_ pointer: UnsafeRawPointer) -> Object {
        Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Gives back the reference of a retained context.
    static func release(_ pointer: UnsafeRawPointer) {
        Unmanaged<Object>.fromOpaque(pointer).release()
    }

    /// Takes the reference of a retained context: the caller owns the object now.
    static func takeRetained(_ pointer: UnsafeRawPointer) -> Object {
        Unmanaged<Object>.fromOpaque(pointer).takeRetainedValue()
    }
}

#if DEBUG
/// The unretained contexts not revoked yet (debug builds only).
enum _CallbackContextRegistry {
    static let shared = LockedState(Set<UnsafeMutableRawPointer>())
}
#endif
