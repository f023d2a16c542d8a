/// The deliveries of one observation waiting for their turn, in order, and whether a
/// delivery is scheduled.
///
/// An observation has at most one delivery in its scheduler at a time: it takes the
/// elements that wait when it runs, runs them in order, then ends, or asks for the next
/// delivery when more came meanwhile. So values arrive in order whatever the scheduler runs
/// them on, and one observation never holds a queue for as long as values keep coming.
/// Taking the elements lets the storage go: each observation keeps one, mostly empty (W6m).
struct DeliveryOrder<Element> {
    private var pending: [Element] = []
    private(set) var isDraining = false

    var count: Int { pending.count }

    /// Adds an element; returns whether a delivery must be scheduled.
    mutating func append(_ element: Element) -> Bool {
        pending.append(element)
        defer { isDraining = true }
        return !isDraining
    }

    /// The elements waiting, in order, for the delivery under way, which runs them after
    /// the lock that guards the order is unlocked: the order keeps no reference to them.
    mutating func takeAll() -> [Element] {
        defer { pending = [] }
        return pending
    }

    /// At the end of a delivery: whether another one must be scheduled (elements came
    /// meanwhile); else the delivery is over.
    mutating func continuesAfterDelivery() -> Bool {
        if !pending.isEmpty { return true }
        isDraining = false
        return false
    }

    /// Drops the elements waiting, and returns them, for the caller to release once the
    /// lock is unlocked; a delivery under way ends at its next step.
    mutating func removeAll() -> [Element] {
        takeAll()
    }
}
