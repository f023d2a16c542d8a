/// A value on the heap whose accesses never overlap: the state of a connection, of its
/// broker, of a statement's column lookups, read and changed on the connection's queue in
/// accesses that do not run application code. Read it as `box.value.field` (an accessor
/// around it may not inline, or may copy the whole value).
///
/// Swift checks at run time that accesses to a class's stored property do not overlap,
/// where the optimizer cannot prove it (a call inside the access, or a client module
/// that inlines it). On the per-statement and per-row paths these checks cost more than
/// the work they guard (measured: Benchmarks/README.md, "Shortcuts"), so release builds
/// skip them for the values kept here. Debug builds, where the tests and the sanitizers
/// run, keep them: an overlapping access stops the program there.
@usableFromInline
final class _ExclusiveAccessBox<Value> {
    #if DEBUG
    @usableFromInline var value: Value
    #else
    @usableFromInline @exclusivity(unchecked) var value: Value
    #endif

    @inlinable
    init(_ value: Value) {
        self.value = value
    }
}
