import Foundation

// The one place where Ripple refers to objects without counting references: C callbacks'
// context pointers, and references whose holder makes sure the object outlives them.

/// A reference that does not keep its object alive, where a counted one would cost two
/// atomic operations for each use (measured: Benchmarks/README.md, "Shortcuts").
///
/// Invariant: the holder keeps the object alive as long as it uses the reference. Debug
/// builds also hold a weak reference, and each use asserts that the object is still there.
struct _UnretainedReference<Object: AnyObject> {
    private let address: UnsafeMutableRawPointer
    #if DEBUG
    private weak var check: Object?
    #endif

    init(_ object: Object) {
        address = _CallbackContext.address(of: object)
        #if DEBUG
        check = object
        #endif
    }

    /// The object, which must still be alive.
    @inline(__always)
    var object: Object {
        #if DEBUG
        assert(check != nil, "an unretained reference was used after its object was freed")
        #endif
        return _CallbackContext.reference(address).takeUnretainedValue()
    }

    /// Whether the reference is to `object` (the object need not be alive).
    @inline(__always)
    func refers(to object: Object) -> Bool {
        address == _CallbackContext.address(of: object)
    }
}

/// An object that a C callback reaches through its context pointer: the one place where
/// Ripple turns objects into raw pointers and back.
///
/// - An **unretained** context does not keep its object alive: the object's owner removes
///   the callback (a hook, the authorizer, a trace) before the object goes, and calls
///   ``revoke(_:)`` then.
/// - A **retained** context holds one reference, given back once, by ``release(_:)`` (a
///   destructor that SQLite calls) or ``takeRetained(_:)`` (a thread that starts).
///
/// In debug builds, each context is registered (an unretained one until it is revoked, a
/// retained one until its reference is given back), and each use asserts that it still
/// is: a callback that outlives its context stops at the assert instead of reading freed
/// memory, and a reference given back twice stops too.
enum _CallbackContext<Object: AnyObject> {
    /// A pointer to `object` that does not retain it.
    static func unretained(_ object: Object) -> UnsafeMutableRawPointer {
        let pointer = address(of: object)
        #if DEBUG
        _CallbackContextRegistry.unretained.withLock { _ = $0.insert(pointer) }
        #endif
        return pointer
    }

    /// The object of an unretained context, whose callback was not removed yet.
    static func object(_ pointer: UnsafeRawPointer?) -> Object {
        guard let pointer else { preconditionFailure("a C callback ran without its context") }
        #if DEBUG
        assert(
            _CallbackContextRegistry.unretained.withLock { $0.contains(UnsafeMutableRawPointer(mutating: pointer)) },
            "a C callback ran after its context was revoked")
        #endif
        return reference(pointer).takeUnretainedValue()
    }

    /// The owner removed the callback of an unretained context: it must not run again.
    static func revoke(_ object: Object) {
        #if DEBUG
        let pointer = address(of: object)
        _CallbackContextRegistry.unretained.withLock { _ = $0.remove(pointer) }
        #endif
    }

    /// A pointer that holds one reference to `object`, until ``release(_:)`` or
    /// ``takeRetained(_:)``.
    static func retained(_ object: Object) -> UnsafeMutableRawPointer {
        let pointer = address(of: object)
        _ = reference(pointer).retain()
        #if DEBUG
        _CallbackContextRegistry.retained.withLock { $0[pointer, default: 0] += 1 }
        #endif
        return pointer
    }

    /// The object of a retained context, which still holds its reference.
    static func retainedObject(_ pointer: UnsafeRawPointer) -> Object {
        #if DEBUG
        assert(
            _CallbackContextRegistry.retained.withLock { $0[UnsafeMutableRawPointer(mutating: pointer)] != nil },
            "a retained context was used after its reference was given back")
        #endif
        return reference(pointer).takeUnretainedValue()
    }

    /// Gives back the reference of a retained context.
    static func release(_ pointer: UnsafeRawPointer) {
        giveBack(pointer)
        reference(pointer).release()
    }

    /// Takes the reference of a retained context: the caller owns the object now.
    static func takeRetained(_ pointer: UnsafeRawPointer) -> Object {
        giveBack(pointer)
        return reference(pointer).takeRetainedValue()
    }

    /// The object's address, without a reference.
    @inline(__always)
    fileprivate static func address(of object: Object) -> UnsafeMutableRawPointer {
        Unmanaged.passUnretained(object).toOpaque()
    }

    /// The object at `pointer`, whose references the caller counts.
    @inline(__always)
    fileprivate static func reference(_ pointer: UnsafeRawPointer) -> Unmanaged<Object> {
        .fromOpaque(pointer)
    }

    private static func giveBack(_ pointer: UnsafeRawPointer) {
        #if DEBUG
        let key = UnsafeMutableRawPointer(mutating: pointer)
        let hadReference = _CallbackContextRegistry.retained.withLock { references -> Bool in
            guard let count = references[key] else { return false }
            references[key] = count > 1 ? count - 1 : nil
            return true
        }
        assert(hadReference, "a retained context's reference was given back twice")
        #endif
    }
}

#if DEBUG
/// The contexts in use (debug builds only): unretained ones not revoked yet, and the
/// references of retained ones not given back (an object may be handed to several
/// connections: a collation).
enum _CallbackContextRegistry {
    static let unretained = LockedState(Set<UnsafeMutableRawPointer>())
    static let retained = LockedState([UnsafeMutableRawPointer: Int]())
}
#endif
