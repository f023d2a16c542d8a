import Foundation

/// Raw statement handles handed from any thread to the connection's queue (see
/// `Statement.deinit`).
final class LockedStatementList: @unchecked Sendable {  // `handles` is only touched under `lock`
    private let lock = NSLock()
    private var handles: [OpaquePointer] = []
    func append(_ handle: OpaquePointer) {
        lock.withLock { handles.append(handle) }
    }

    func takeAll() -> [OpaquePointer] {
        lock.withLock {
            defer { handles.removeAll() }
            return handles
        }
    }
}
