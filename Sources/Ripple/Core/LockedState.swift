#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value behind a lock, in one allocation: the value is the buffer's header, the lock its
/// one element.
///
/// For the state that every observation keeps (its fetch state, its cancellation, the order
/// of its deliveries): a Foundation `NSLock` is an object and a separately allocated mutex
/// (about 100 bytes on Linux), and an observation had three of them (W6m).
///
/// Invariant: the lock is initialized when the buffer is made, destroyed in `deinit`, never
/// moved (a `ManagedBuffer`'s elements stay where they were allocated), and the value is
/// only reached through `withLock`, with the lock held. Lock and unlock results are checked
/// by `assert` in debug builds.
package struct LockedState<State>: @unchecked Sendable {  // the value is only reached with the lock held
    private let storage: _LockedStorage<State>

    package init(_ initial: State) {
        storage = _LockedStorage.make(initial)
    }

    /// Runs `body` with the lock held, on the value.
    @inline(__always)
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try storage.withLock(body)
    }
}

#if canImport(Darwin)
typealias _LockPrimitive = os_unfair_lock
#else
typealias _LockPrimitive = pthread_mutex_t
#endif

/// The buffer of ``LockedState``: the value, then the lock.
final class _LockedStorage<State>: ManagedBuffer<State, _LockPrimitive> {
    static func make(_ initial: State) -> _LockedStorage<State> {
        let buffer = create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { lock in
                #if canImport(Darwin)
                lock.initialize(to: os_unfair_lock())
                #else
                lock.initialize(to: pthread_mutex_t())
                let result = pthread_mutex_init(lock, nil)
                assert(result == 0, "pthread_mutex_init failed: \(result)")
                #endif
            }
            return initial
        }
        return unsafeDowncast(buffer, to: _LockedStorage<State>.self)
    }

    deinit {
        // (ManagedBuffer destroys the header itself; the elements are the subclass's.)
        withUnsafeMutablePointerToElements { lock in
            #if !canImport(Darwin)
            let result = pthread_mutex_destroy(lock)
            assert(result == 0, "pthread_mutex_destroy failed: \(result)")
            #endif
            _ = lock.deinitialize(count: 1)
        }
    }

    @inline(__always)
    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try withUnsafeMutablePointers { header, lock in
            #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            #else
            let locked = pthread_mutex_lock(lock)
            assert(locked == 0, "pthread_mutex_lock failed: \(locked)")
            defer {
                let unlocked = pthread_mutex_unlock(lock)
                assert(unlocked == 0, "pthread_mutex_unlock failed: \(unlocked)")
            }
            #endif
            return try body(&header.pointee)
        }
    }
}
