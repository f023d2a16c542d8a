// Standard collections built from the remaining elements of a cursor.
// (Inlinable: `fetchAll` and `fetchSet` go through them, once per row.)

extension RangeReplaceableCollection {
    /// A collection of the remaining elements of a cursor.
    ///
    /// ```swift
    /// let names: [String] = try Array(String.fetchCursor(db, sql: "SELECT name FROM player"))
    /// ```
    @inlinable
    public init(_ cursor: some Cursor<Element>) throws {
        self.init()
        try append(contentsOf: cursor)
    }

    /// A collection of the remaining elements of a cursor, with room for
    /// `minimumCapacity` elements reserved up front.
    @inlinable
    public init(_ cursor: some Cursor<Element>, minimumCapacity: Int) throws {
        self.init()
        reserveCapacity(minimumCapacity)
        try append(contentsOf: cursor)
    }

    /// Appends the remaining elements of a cursor. If the cursor throws, the elements
    /// read before the error stay appended.
    @inlinable
    public mutating func append(contentsOf newElements: some Cursor<Element>) throws {
        try newElements._append(to: &self)
    }
}

extension Array {
    /// The remaining elements of a cursor. (Array's own, more specific than the one of
    /// `RangeReplaceableCollection`: `fetchAll` goes through it, and the generic one is
    /// slower (measured: Benchmarks/README.md, "Shortcuts").)
    @inlinable
    public init<C: Cursor>(_ cursor: C) throws where C.Element == Element {
        self.init()
        try cursor._append(to: &self)
    }
}

extension Set {
    /// A set of the remaining elements of a cursor.
    ///
    /// ```swift
    /// let names: Set<String> = try Set(String.fetchCursor(db, sql: "SELECT name FROM player"))
    /// ```
    @inlinable
    public init(_ cursor: some Cursor<Element>) throws {
        self.init()
        try formUnion(cursor)
    }

    /// A set of the remaining elements of a cursor, with room for `minimumCapacity`
    /// elements reserved up front.
    @inlinable
    public init(_ cursor: some Cursor<Element>, minimumCapacity: Int) throws {
        self.init(minimumCapacity: minimumCapacity)
        try formUnion(cursor)
    }

    /// Inserts the remaining elements of a cursor. Members already in the set are kept;
    /// of equal elements of the cursor, the first is kept.
    @inlinable
    public mutating func formUnion(_ cursor: some Cursor<Element>) throws {
        try cursor.forEach { insert($0) }
    }

    /// The elements of this set and of the remaining elements of a cursor.
    public func union(_ cursor: some Cursor<Element>) throws -> Set<Element> {
        var union = self
        try union.formUnion(cursor)
        return union
    }

    /// The members of this set that the cursor also hands out.
    public func intersection(_ cursor: some Cursor<Element>) throws -> Set<Element> {
        // Streamed: only the common members are kept in memory, not the whole cursor.
        var result: Set<Element> = []
        try cursor.forEach { element in
            if let index = firstIndex(of: element) { result.insert(self[index]) }
        }
        return result
    }

    /// Removes the members that the cursor does not hand out.
    public mutating func formIntersection(_ cursor: some Cursor<Element>) throws {
        self = try intersection(cursor)
    }
}

extension Dictionary {
    /// A dictionary of the remaining elements of a cursor, grouped in arrays by the key
    /// that `keyForValue` returns. The arrays keep the order of the cursor.
    ///
    /// ```swift
    /// let playersByTeam = try Dictionary(grouping: Player.fetchCursor(db), by: { $0.teamID })
    /// ```
    public init<C: Cursor>(grouping cursor: C, by keyForValue: (C.Element) throws -> Key) throws
    where Value == [C.Element] {
        try self.init(minimumCapacity: 0, grouping: cursor, by: keyForValue)
    }

    /// A dictionary of the remaining elements of a cursor, grouped in arrays by the key
    /// that `keyForValue` returns, with room for `minimumCapacity` keys reserved up front.
    public init<C: Cursor>(minimumCapacity: Int, grouping cursor: C, by keyForValue: (C.Element) throws -> Key) throws
    where Value == [C.Element] {
        self.init(minimumCapacity: minimumCapacity)
        try cursor.forEach { element in
            try self[keyForValue(element), default: []].append(element)
        }
    }

    /// A dictionary of the key-value pairs of a cursor.
    ///
    /// ```swift
    /// let playerByID = try Dictionary(uniqueKeysWithValues: Player.fetchCursor(db).map { ($0.id, $0) })
    /// ```
    ///
    /// - precondition: No key comes twice; a duplicate key is a fatal error.
    public init(uniqueKeysWithValues keysAndValues: some Cursor<(Key, Value)>) throws {
        try self.init(minimumCapacity: 0, uniqueKeysWithValues: keysAndValues)
    }

    /// A dictionary of the key-value pairs of a cursor, with room for `minimumCapacity`
    /// keys reserved up front.
    ///
    /// - precondition: No key comes twice; a duplicate key is a fatal error.
    public init(minimumCapacity: Int, uniqueKeysWithValues keysAndValues: some Cursor<(Key, Value)>) throws {
        self.init(minimumCapacity: minimumCapacity)
        try keysAndValues.forEach { key, value in
            guard updateValue(value, forKey: key) == nil else {
                fatalError("Dictionary(uniqueKeysWithValues:): the cursor has the key \(String(reflecting: key)) twice")
            }
        }
    }
}
