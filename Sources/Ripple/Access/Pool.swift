import Dispatch
import Foundation

/// A bounded set of reusable elements (the readers of a ``DatabasePool``), handed out one
/// client at a time, with a barrier that waits for every element to be free.
final class Pool<T: AnyObject & Sendable>: Sendable {
    private struct Item {
        let element: T
        var isAvailable: Bool
    }

    private struct State {
        var items: [Item] = []
        var isClosed = false
    }

    private let makeElement: @Sendable (Int) throws -> T
    private let state = LockedState(State())
    private let semaphore: DispatchSemaphore  // counts free places
    private let maximumCount: Int
    // Acquisitions run concurrently on it; a barrier runs alone.
    private let barrierQueue: DispatchQueue

    init(maximumCount: Int, label: String, makeElement: @escaping @Sendable (Int) throws -> T) {
        precondition(maximumCount > 0, "Configuration.maximumReaderCount must be at least 1")
        self.maximumCount = maximumCount
        self.makeElement = makeElement
        self.semaphore = DispatchSemaphore(value: maximumCount)
        self.barrierQueue = DispatchQueue(label: label, attributes: .concurrent)
    }

    /// An element, and the closure that gives it back. Blocks while all are in use.
    func get() throws -> (element: T, release: @Sendable () -> Void) {
        try barrierQueue.sync {
            semaphore.wait()
            do {
                let element = try lockedGet()
                return (element, { [self] in release(element: element) })
            } catch {
                semaphore.signal()
                throw error
            }
        }
    }

    private func lockedGet() throws -> T {
        try state.withLock { state in
            if state.isClosed { throw DatabaseError.misuse("Connection is closed") }
            if let index = state.items.firstIndex(where: \.isAvailable) {
                state.items[index].isAvailable = false
                return state.items[index].element
            }
            let element = try makeElement(state.items.count)
            state.items.append(Item(element: element, isAvailable: false))
            return element
        }
    }

    private func release(element: T) {
        state.withLock { state in
            if let index = state.items.firstIndex(where: { $0.element === element }) {
                state.items[index].isAvailable = true
            }
        }
        semaphore.signal()
    }

    /// The elements made so far, in use or not.
    var elements: [T] {
        state.withLock { $0.items.map(\.element) }
    }

    /// Runs `block` once no element is in use, while none can be taken.
    func barrier<R>(_ block: ([T]) throws -> R) rethrows -> R {
        try barrierQueue.sync(flags: .barrier) {
            for _ in 0..<maximumCount { semaphore.wait() }
            defer { for _ in 0..<maximumCount { semaphore.signal() } }
            let elements = state.withLock { $0.items.map(\.element) }
            return try block(elements)
        }
    }

    /// Closes the pool: `close` is called on every element, and later `get` calls throw.
    func close(_ closeElement: (T) throws -> Void) throws {
        try barrier { elements in
            state.withLock { state in
                state.isClosed = true
                state.items.removeAll()
            }
            for element in elements { try closeElement(element) }
        }
    }
}
