/// A first-in, first-out queue: an array read from a moving start, emptied (keeping its
/// capacity) once every element was taken, and compacted once the taken slots are half of
/// it. What ``ConcurrencyLimitState`` waits in.
///
/// An element taken leaves the queue at once: the queue keeps no reference to it. (Its
/// user takes elements with a lock held, and an element may hold objects whose `deinit` is
/// the application's: the last reference to a taken element must not go while the lock is
/// held, when the queue empties.)
struct FIFO<Element> {
    private var elements: [Element?] = []
    private var start = 0

    var count: Int { elements.count - start }
    /// The slots of the array, taken ones included (for tests).
    var slotCount: Int { elements.count }
    var isEmpty: Bool { start == elements.count }

    mutating func append(_ element: Element) {
        elements.append(element)
    }

    /// The first element, removed; nil when empty.
    mutating func popFirst() -> Element? {
        guard start < elements.count else { return nil }
        let element = elements[start].take()
        assert(element != nil, "an element is taken once")
        start += 1
        if start == elements.count {
            elements.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 16 && start * 2 >= elements.count {
            // Elements that keep coming before the queue empties: the taken slots go, so
            // that the array does not grow with them.
            elements.removeFirst(start)
            start = 0
        }
        return element
    }
}
