// The methods of `Cursor` that mirror those of `Sequence`. Those that return a cursor are
// lazy (see CursorAdapters.swift); the others read the cursor until they have their answer.

extension Cursor {
    /// Whether the cursor has no element left.
    ///
    /// - important: This property reads one element, which is then lost.
    public var isEmpty: Bool {
        get throws { try first(where: { _ in true }) == nil }
    }

    /// Calls `body` on each remaining element. (Inlinable: `fetchSet` and the collections
    /// built from a database cursor go through it once per row.)
    @inlinable
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() { try body(element) }
    }

    @inlinable
    public func _append<C: RangeReplaceableCollection>(to collection: inout C) throws where C.Element == Element {
        try forEach { collection.append($0) }
    }

    /// Whether an element satisfies `predicate`; stops at the first one.
    public func contains(where predicate: (Element) throws -> Bool) throws -> Bool {
        try first(where: predicate) != nil
    }

    /// The first element that satisfies `predicate`; stops there.
    public func first(where predicate: (Element) throws -> Bool) throws -> Element? {
        while let element = try next() {
            if try predicate(element) { return element }
        }
        return nil
    }

    /// Combines the remaining elements.
    ///
    /// ```swift
    /// let total = try Int.fetchCursor(db, sql: "SELECT score FROM player").reduce(0, +)
    /// ```
    public func reduce<Result>(_ initialResult: Result, _ nextPartialResult: (Result, Element) throws -> Result) throws -> Result {
        try reduce(into: initialResult) { result, element in
            result = try nextPartialResult(result, element)
        }
    }

    /// Combines the remaining elements into a value updated in place.
    ///
    /// ```swift
    /// let countByName = try String.fetchCursor(db, sql: "SELECT name FROM player")
    ///     .reduce(into: [:]) { counts, name in counts[name, default: 0] += 1 }
    /// ```
    public func reduce<Result>(into initialResult: Result, _ updateAccumulatingResult: (inout Result, Element) throws -> Void) throws -> Result {
        var result = initialResult
        try forEach { element in try updateAccumulatingResult(&result, element) }
        return result
    }

    /// The greatest element, as `areInIncreasingOrder` orders them; the first of equal
    /// greatest elements; nil if there is none.
    public func max(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        // The greatest is the least when the order is reversed.
        try min(by: { lhs, rhs in try areInIncreasingOrder(rhs, lhs) })
    }

    /// The least element, as `areInIncreasingOrder` orders them; the first of equal
    /// least elements; nil if there is none.
    public func min(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        guard var least = try next() else { return nil }
        try forEach { element in
            if try areInIncreasingOrder(element, least) { least = element }
        }
        return least
    }

    /// The elements but the last `k`, in an array; empty if there are fewer than `k`.
    ///
    /// ```swift
    /// try AnyCursor([1, 2, 3, 4, 5]).dropLast(2)  // [1, 2, 3]
    /// ```
    ///
    /// - precondition: `k >= 0`.
    public func dropLast(_ k: Int) throws -> [Element] {
        precondition(k >= 0, "Can't drop a negative number of elements from a cursor")
        var window = TrailingWindow<Element>(capacity: k)
        var kept: [Element] = []
        try forEach { element in
            if let earlier = window.push(element) { kept.append(earlier) }
        }
        return kept
    }

    /// The elements but the last one, in an array.
    public func dropLast() throws -> [Element] {
        try dropLast(1)
    }

    /// The last `maxLength` elements, in an array; all of them if there are fewer.
    ///
    /// ```swift
    /// try AnyCursor([1, 2, 3, 4, 5]).suffix(2)  // [4, 5]
    /// ```
    ///
    /// - precondition: `maxLength >= 0`.
    public func suffix(_ maxLength: Int) throws -> [Element] {
        precondition(maxLength >= 0, "Can't take a suffix of negative length from a cursor")
        // An empty suffix needs no element: the cursor is left as it is.
        if maxLength == 0 { return [] }
        var window = TrailingWindow<Element>(capacity: maxLength)
        try forEach { element in _ = window.push(element) }
        return window.elements
    }

    /// A cursor of transformed elements, transformed lazily.
    ///
    /// ```swift
    /// let names = try Player.fetchCursor(db).map { $0.name }
    /// ```
    public func map<T>(_ transform: @escaping (Element) throws -> T) -> MapCursor<Self, T> {
        MapCursor(self, transform)
    }

    /// A cursor of the elements that satisfy `isIncluded`, filtered lazily.
    public func filter(_ isIncluded: @escaping (Element) throws -> Bool) -> FilterCursor<Self> {
        FilterCursor(self, isIncluded)
    }

    /// A cursor of the non-nil results of `transform`, transformed lazily.
    ///
    /// ```swift
    /// let numbers = AnyCursor(["1", "x", "3"]).compactMap { Int($0) }  // 1, 3
    /// ```
    public func compactMap<ElementOfResult>(_ transform: @escaping (Element) throws -> ElementOfResult?)
        -> MapCursor<FilterCursor<MapCursor<Self, ElementOfResult?>>, ElementOfResult>
    {
        map(transform)
            .filter { result in result != nil }
            // Safe: nil results were filtered out above.
            .map { result in result.unsafelyUnwrapped }
    }

    /// A cursor of pairs `(n, x)`: the elements `x`, and their offsets `n` from zero.
    public func enumerated() -> EnumeratedCursor<Self> {
        EnumeratedCursor(self)
    }

    /// A cursor of the elements that follow the first ones that satisfy `predicate`.
    /// Once `predicate` returns false, it is not called again.
    public func drop(while predicate: @escaping (Element) throws -> Bool) -> DropWhileCursor<Self> {
        DropWhileCursor(self, predicate: predicate)
    }

    /// A cursor of the elements but the first `k`; empty if there are fewer than `k`.
    ///
    /// ```swift
    /// try Array(AnyCursor([1, 2, 3, 4, 5]).dropFirst(2))  // [3, 4, 5]
    /// ```
    ///
    /// - precondition: `k >= 0`.
    public func dropFirst(_ k: Int) -> DropFirstCursor<Self> {
        DropFirstCursor(self, count: k)
    }

    /// A cursor of the elements but the first one.
    public func dropFirst() -> DropFirstCursor<Self> {
        dropFirst(1)
    }

    /// A cursor of the first `maxLength` elements; all of them if there are fewer.
    ///
    /// ```swift
    /// try Array(AnyCursor([1, 2, 3, 4, 5]).prefix(2))  // [1, 2]
    /// ```
    public func prefix(_ maxLength: Int) -> PrefixCursor<Self> {
        PrefixCursor(self, maxLength: maxLength)
    }

    /// A cursor of the first elements that satisfy `predicate`. Once `predicate` returns
    /// false, it is not called again.
    public func prefix(while predicate: @escaping (Element) throws -> Bool) -> PrefixWhileCursor<Self> {
        PrefixWhileCursor(self, predicate: predicate)
    }

    /// A cursor of the elements of the cursors that `transform` returns, one after the other.
    ///
    /// ```swift
    /// let books = try Author.fetchCursor(db).flatMap { author in
    ///     try Book.filter(Column("authorId") == author.id).fetchCursor(db)
    /// }
    /// ```
    public func flatMap<SegmentOfResult: Cursor>(_ transform: @escaping (Element) throws -> SegmentOfResult)
        -> FlattenCursor<MapCursor<Self, SegmentOfResult>>
    {
        FlattenCursor(map(transform))
    }

    /// A cursor of the elements of the sequences that `transform` returns, one after the other.
    ///
    /// ```swift
    /// let letters = AnyCursor(["ab", "c"]).flatMap { Array($0) }  // "a", "b", "c"
    /// ```
    public func flatMap<SegmentOfResult: Sequence>(_ transform: @escaping (Element) throws -> SegmentOfResult)
        -> FlattenCursor<MapCursor<Self, AnyCursor<SegmentOfResult.Element>>>
    {
        flatMap { element in try AnyCursor(transform(element)) }
    }
}

extension Cursor where Element: Equatable {
    /// Whether the cursor contains `element`; stops at the first one.
    public func contains(_ element: Element) throws -> Bool {
        try contains(where: { $0 == element })
    }
}

extension Cursor where Element: Comparable {
    /// The greatest element; the first of equal greatest elements; nil if there is none.
    public func max() throws -> Element? {
        try max(by: <)
    }

    /// The least element; the first of equal least elements; nil if there is none.
    public func min() throws -> Element? {
        try min(by: <)
    }
}

extension Cursor where Element: Cursor {
    /// A cursor of the elements of each cursor, one after the other.
    public func joined() -> FlattenCursor<Self> {
        FlattenCursor(self)
    }
}

extension Cursor where Element: Sequence {
    /// A cursor of the elements of each sequence, one after the other.
    ///
    /// ```swift
    /// try Array(AnyCursor([[1, 2], [3]]).joined())  // [1, 2, 3]
    /// ```
    public func joined() -> FlattenCursor<MapCursor<Self, AnyCursor<Element.Element>>> {
        map { AnyCursor($0) }.joined()
    }
}

extension Cursor where Element: StringProtocol {
    /// The strings, concatenated with `separator` between each.
    ///
    /// ```swift
    /// try String.fetchCursor(db, sql: "SELECT name FROM player").joined(separator: ", ")
    /// ```
    public func joined(separator: String = "") throws -> String {
        var joined = ""
        guard let first = try next() else { return joined }
        joined.append(contentsOf: first)
        try forEach { string in
            joined.append(separator)
            joined.append(contentsOf: string)
        }
        return joined
    }
}

extension Sequence {
    /// A cursor of the elements of the cursors that `transform` returns, one after the other.
    ///
    /// ```swift
    /// let players = try teamIDs.flatMap { id in
    ///     try Player.filter(Column("teamId") == id).fetchCursor(db)
    /// }
    /// ```
    public func flatMap<SegmentOfResult: Cursor>(_ transform: @escaping (Element) throws -> SegmentOfResult)
        -> FlattenCursor<MapCursor<AnyCursor<Element>, SegmentOfResult>>
    {
        FlattenCursor(AnyCursor(self).map(transform))
    }
}

/// The last elements of a stream, up to a capacity, kept in a ring: what `suffix` returns,
/// and what `dropLast` holds back.
private struct TrailingWindow<Element> {
    private let capacity: Int
    private var ring: [Element] = []
    /// Where the oldest element is, once the ring is full.
    private var oldest = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Keeps `element`, and returns the element that leaves the window to make room, if any.
    mutating func push(_ element: Element) -> Element? {
        if capacity == 0 { return element }
        if ring.count < capacity {
            ring.append(element)
            return nil
        }
        let leaving = ring[oldest]
        ring[oldest] = element
        oldest = oldest + 1 == capacity ? 0 : oldest + 1
        return leaving
    }

    /// The kept elements, oldest first.
    var elements: [Element] {
        Array(ring[oldest...]) + ring[..<oldest]
    }
}
