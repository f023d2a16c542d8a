// The lazy cursors that the adapter methods of `Cursor` return (see CursorAlgorithms.swift).
// Each pulls from its base only when its own `next()` is called.

/// A cursor that transforms the elements of another.
public final class MapCursor<Base: Cursor, Element>: Cursor {
    private let base: Base
    private let transform: (Base.Element) throws -> Element
    init(_ base: Base, _ transform: @escaping (Base.Element) throws -> Element) {
        self.base = base
        self.transform = transform
    }
    public func next() throws -> Element? {
        try base.next().map(transform)
    }
    public func forEach(_ body: (Element) throws -> Void) throws {
        try base.forEach { try body(transform($0)) }
    }
}

/// A cursor of the elements of another that satisfy a predicate.
public final class FilterCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let isIncluded: (Base.Element) throws -> Bool
    init(_ base: Base, _ isIncluded: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.isIncluded = isIncluded
    }
    public func next() throws -> Base.Element? {
        while let element = try base.next() {
            if try isIncluded(element) { return element }
        }
        return nil
    }
    public func forEach(_ body: (Base.Element) throws -> Void) throws {
        try base.forEach { element in
            if try isIncluded(element) { try body(element) }
        }
    }
}

/// A cursor of the elements of another, but its first ones.
///
/// ```swift
/// let numbers = AnyCursor([1, 2, 3, 4])
/// try Array(numbers.dropFirst(2))  // [3, 4]
/// ```
public final class DropFirstCursor<Base: Cursor>: Cursor {
    private let base: Base
    private var countToDrop: Int
    init(_ base: Base, count: Int) {
        precondition(count >= 0, "Can't drop a negative number of elements from a cursor")
        self.base = base
        self.countToDrop = count
    }
    public func next() throws -> Base.Element? {
        // Dropped at the first call, not at creation, so that creating the cursor reads nothing.
        while countToDrop > 0 {
            guard try base.next() != nil else {
                countToDrop = 0
                return nil
            }
            countToDrop -= 1
        }
        return try base.next()
    }
}

/// A cursor of the elements of another that follow its first ones that satisfy a predicate.
///
/// ```swift
/// let numbers = AnyCursor([1, 2, 5, 1])
/// try Array(numbers.drop(while: { $0 < 3 }))  // [5, 1]
/// ```
public final class DropWhileCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let predicate: (Base.Element) throws -> Bool
    private var isDropping = true
    init(_ base: Base, predicate: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.predicate = predicate
    }
    public func next() throws -> Base.Element? {
        guard isDropping else { return try base.next() }
        while let element = try base.next() {
            if try !predicate(element) {
                isDropping = false
                return element
            }
        }
        return nil
    }
}

/// A cursor of pairs `(n, x)`: the elements `x` of another cursor, and their offsets `n`
/// from zero.
///
/// ```swift
/// let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
/// let enumerated = names.enumerated()
/// while let (n, name) = try enumerated.next() {
///     print("\(n): \(name)")
/// }
/// ```
public final class EnumeratedCursor<Base: Cursor>: Cursor {
    private let base: Base
    private var offset = 0
    init(_ base: Base) {
        self.base = base
    }
    public func next() throws -> (Int, Base.Element)? {
        guard let nextElement = try base.next() else { return nil }
        offset += 1
        return (offset - 1, nextElement)
    }
    public func forEach(_ body: ((Int, Base.Element)) throws -> Void) throws {
        try base.forEach { element in
            offset += 1
            try body((offset - 1, element))
        }
    }
}

/// A cursor of the elements of the cursors that another cursor hands out, one after the
/// other.
///
/// ```swift
/// let segments = AnyCursor([AnyCursor([1, 2]), AnyCursor([3])])
/// try Array(segments.joined())  // [1, 2, 3]
/// ```
public final class FlattenCursor<Base: Cursor>: Cursor where Base.Element: Cursor {
    private let base: Base
    private var segment: Base.Element?
    init(_ base: Base) {
        self.base = base
    }
    public func next() throws -> Base.Element.Element? {
        while true {
            if let current = segment {
                if let element = try current.next() { return element }
                // Released before the next one opens: a segment may hold a statement.
                segment = nil
            }
            guard let nextSegment = try base.next() else { return nil }
            segment = nextSegment
        }
    }
}

/// A cursor of the first elements of another, up to a maximum count.
///
/// ```swift
/// let numbers = AnyCursor([1, 2, 3, 4])
/// try Array(numbers.prefix(2))  // [1, 2]
/// ```
public final class PrefixCursor<Base: Cursor>: Cursor {
    private let base: Base
    private var remainingCount: Int
    init(_ base: Base, maxLength: Int) {
        self.base = base
        self.remainingCount = maxLength
    }
    public func next() throws -> Base.Element? {
        // Once the prefix is complete, the base is not read again.
        guard remainingCount > 0 else { return nil }
        guard let element = try base.next() else {
            remainingCount = 0
            return nil
        }
        remainingCount -= 1
        return element
    }
}

/// A cursor of the first elements of another that satisfy a predicate.
///
/// ```swift
/// let numbers = AnyCursor([1, 2, 5, 1])
/// try Array(numbers.prefix(while: { $0 < 3 }))  // [1, 2]
/// ```
public final class PrefixWhileCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let predicate: (Base.Element) throws -> Bool
    private var isDone = false
    init(_ base: Base, predicate: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.predicate = predicate
    }
    public func next() throws -> Base.Element? {
        // Once an element fails the predicate, neither the base nor the predicate is called.
        guard !isDone else { return nil }
        if let element = try base.next(), try predicate(element) { return element }
        isDone = true
        return nil
    }
}
