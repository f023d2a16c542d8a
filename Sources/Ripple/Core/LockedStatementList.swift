/// Raw statement handles handed from any thread to the connection's queue (see
/// `Statement.deinit`).
final class LockedStatementList: Sendable {
    private let handles = LockedState<[OpaquePointer]>([])

    func append(_ handle: OpaquePointer) {
        handles.withLock { $0.append(handle) }
    }

    func takeAll() -> [OpaquePointer] {
        handles.withLock { handles in
            defer { handles.removeAll() }
            return handles
        }
    }
}
