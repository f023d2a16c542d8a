/// A type-erased cursor: it hands out the elements of another cursor, of a sequence, or
/// of a closure, and hides their type.
///
/// ```swift
/// func scores(_ db: Database) throws -> AnyCursor<Int> {
///     try AnyCursor(Int.fetchCursor(db, sql: "SELECT score FROM player"))
/// }
/// let numbers = AnyCursor([1, 2, 3])
/// ```
public final class AnyCursor<Element>: Cursor {
    private let nextElement: () throws -> Element?
    /// The base cursor's `forEach`, when there is a base cursor.
    private let forEachElement: (((Element) throws -> Void) throws -> Void)?

    /// A cursor whose elements are those of `base`; its `forEach` is the base's.
    public init<C: Cursor>(_ base: C) where C.Element == Element {
        nextElement = base.next
        forEachElement = base.forEach
    }

    /// A cursor whose elements are those that `iterator` returns.
    public convenience init(iterator: some IteratorProtocol<Element>) {
        var source = iterator
        self.init { source.next() }
    }

    /// A cursor whose elements are those of `sequence`.
    public convenience init(_ sequence: some Sequence<Element>) {
        let iterator = sequence.makeIterator()
        self.init(iterator: iterator)
    }

    /// A cursor whose ``next()`` calls `next`.
    ///
    /// ```swift
    /// var names = ["Arthur", "Barbara"][...]
    /// let cursor = AnyCursor { names.popFirst() }  // "Arthur", "Barbara"
    /// ```
    public init(_ next: @escaping () throws -> Element?) {
        nextElement = next
        forEachElement = nil
    }

    public func next() throws -> Element? {
        try nextElement()
    }

    public func forEach(_ body: (Element) throws -> Void) throws {
        if let forEachElement {
            try forEachElement(body)
        } else {
            while let element = try nextElement() { try body(element) }
        }
    }
}
