/// A first-in, first-out queue: an array read from a moving start, emptied (keeping its
/// capacity) once every element was taken, and compacted once the taken slots are half of
/// it. What ``ConcurrencyLimitState`` and
/// ``DeliveryOrder`` wait in.
///
/// An element taken leaves the queue at once: the queue keeps no reference to it. (Both
/// users take elements with a lock held, and a value observation's values may be objects
/// whose `deinit` is the application's: the last reference to a delivered value must not
/// go while the lock is held, when the queue empties.)
struct FIFO<Element> {
    private var elements: [Element?] = []
    /// The index of the first element. (An `Int32`, so that the queue takes 12 bytes and
    /// the flag of a ``DeliveryOrder`` fits in the word they begin: each value observation
    /// keeps one, W6m. The queue compacts once the taken slots are half of it, so that
    /// `start` reaches 2³¹ only with over 2³¹ elements waiting; then `+=` traps.)
    private var start: Int32 = 0

    var count: Int { elements.count - Int(start) }
    /// The slots of the array, taken ones included (for tests).
    var slotCount: Int { elements.count }
    var isEmpty: Bool { Int(start) == elements.count }

    mutating func append(_ element: Element) {
        elements.append(element)
    }

    /// The first element, removed; nil when empty.
    mutating func popFirst() -> Element? {
        guard Int(start) < elements.count else { return nil }
        let element = elements[Int(start)].take()
        assert(element != nil, "an element is taken once")
        start += 1
        if Int(start) == elements.count {
            elements.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 16 && Int(start) * 2 >= elements.count {
            // Elements that keep coming before the queue empties: the taken slots go, so
            // that the array does not grow with them.
            elements.removeFirst(Int(start))
            start = 0
        }
        return element
    }
}
