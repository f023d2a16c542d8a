/// A list of objects kept alive elsewhere, read and written without reference counting.
///
/// The broker's per-statement and per-row paths walk its observer entries for every
/// statement and every row: with a Swift array, each walk retains and releases the array
/// and each element, and each of those is an atomic operation. The entries are owned by
/// the broker's `entries` array; this list only points at them, and must be cleared before
/// an entry it holds may be deallocated.
final class UnmanagedList<Element: AnyObject> {
    // Confined to the connection's queue, never accessed re-entrantly.
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<Unmanaged<Element>>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private(set) var count = 0

    init() {
        capacity = 4
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// Runs `body` with the element at `index`, without retaining it.
    @inline(__always)
    func withElement<R>(at index: Int, _ body: (Element) throws -> R) rethrows -> R {
        precondition(index >= 0 && index < count, "UnmanagedList index out of range")
        return try base[index]._withUnsafeGuaranteedRef(body)
    }

    func append(_ element: Element) {
        if count == capacity {
            let newCapacity = capacity * 2
            let newBase = UnsafeMutablePointer<Unmanaged<Element>>.allocate(capacity: newCapacity)
            newBase.moveInitialize(from: base, count: count)
            base.deallocate()
            base = newBase
            capacity = newCapacity
        }
        (base + count).initialize(to: .passUnretained(element))
        count += 1
    }

    /// Empties the list, keeping its storage.
    func removeAll() {
        count = 0
    }

    /// Replaces the content with `elements`.
    func replace(with elements: [Element]) {
        removeAll()
        for element in elements { append(element) }
    }
}
