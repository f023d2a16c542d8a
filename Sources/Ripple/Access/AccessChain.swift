import CRippleSupport

/// The database accesses the current thread runs, innermost first, so that an access that
/// would wait for a connection the thread already holds (and deadlock) is caught before it
/// waits.
///
/// An access is a block run on a connection's serial queue. `queue.sync` runs the block on
/// the calling thread, so accesses nest on one thread: a pool's read may write, and that
/// write may read again. Only an access to a connection the thread already holds can never
/// start; any other one can.
///
/// The unsafe part, confined here: each access's frame lives on the stack of
/// ``withAccess(to:_:)``, and the thread-local chain points to it while the block runs.
/// Invariant: frames are popped in the reverse order of their pushes, by the call that
/// pushed them, so the chain never points to a frame that is gone. `withAccess` checks it
/// with a precondition (a violation would be a bug in Ripple, not in the application).
/// The connection of the top frame is kept in a thread-local of its own as well, which
/// the check of a statement row's value reads compares first (see `ripple_access_holds`);
/// debug builds check that it follows the pushes and pops.
enum AccessChain {
    /// Whether the current thread runs an access to `connection`.
    static func holds(_ connection: AnyObject) -> Bool {
        ripple_access_holds(identity(of: connection)) != 0
    }

    /// Whether the current thread runs any database access.
    static var isInsideAnyAccess: Bool {
        ripple_access_innermost_connection() != nil
    }

    /// Runs `body` as an access to `connection` on the current thread.
    static func withAccess<T>(to connection: AnyObject, _ body: () throws -> T) rethrows -> T {
        var frame = ripple_access_frame(connection: identity(of: connection), parent: nil)
        return try withUnsafeMutablePointer(to: &frame) { frame in
            ripple_access_push(frame)
            defer {
                let popped = ripple_access_pop(frame)
                precondition(popped != 0, "Ripple's chain of database accesses was popped out of order")
                assert(ripple_access_innermost_is_consistent() != 0, "the innermost connection is the top frame's")
            }
            assert(ripple_access_innermost_is_consistent() != 0, "the innermost connection is the top frame's")
            return try body()
        }
    }

    /// An identity that is compared, never dereferenced.
    static func identity(of connection: AnyObject) -> UnsafeRawPointer {
        UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(connection)))!
    }
}
