/// A first-in, first-out queue: an array read from a moving start, emptied (keeping its
/// capacity) once every element was taken. What ``ConcurrencyLimitState`` and
/// ``DeliveryOrder`` wait in.
struct FIFO<Element> {
    private var elements: [Element] = []
    private var start = 0

    var count: Int { elements.count - start }
    var isEmpty: Bool { start == elements.count }

    mutating func append(_ element: Element) {
        elements.append(element)
    }

    /// The first element, removed; nil when empty.
    mutating func popFirst() -> Element? {
        guard start < elements.count else { return nil }
        let element = elements[start]
        start += 1
        if start == elements.count {
            elements.removeAll(keepingCapacity: true)
            start = 0
        }
        return element
    }
}
