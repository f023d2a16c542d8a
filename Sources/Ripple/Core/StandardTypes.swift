import CSQLite

// Integers are stored as SQLite integers. A value read back must fit the requested type
// exactly: a REAL with a fraction, or outside the type's range, fails instead of clamping.

// Columns are read through `sqlite3_column_value`: one column access, then cheap value
// accessors, instead of one column access (with its bookkeeping) for the type and another
// for the value. The value is unprotected, which is fine on the connection's own thread.

@inlinable
func columnInteger<I: FixedWidthInteger>(_ sqliteStatement: OpaquePointer, _ index: CInt) -> I? {
    let value = sqlite3_column_value(sqliteStatement, index)
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: return I(exactly: sqlite3_value_int64(value))
    case SQLITE_FLOAT: return I(exactly: sqlite3_value_double(value))
    default: return nil
    }
}

@inline(__always)
func databaseInteger<I: FixedWidthInteger>(_ dbValue: DatabaseValue) -> I? {
    switch dbValue.storage {
    case .int64(let int): return I(exactly: int)
    case .double(let double): return I(exactly: double)
    default: return nil
    }
}

extension Int: DatabaseValueConvertible, _ColumnTypeCheckingConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    public func bind(to sqliteStatement: OpaquePointer, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int? { databaseInteger(dbValue) }
    @inlinable
    public init?(sqliteStatement: OpaquePointer, index: CInt) {
        guard let value: Int = columnInteger(sqliteStatement, index) else { return nil }
        self = value
    }
}

extension Int8: DatabaseValueConvertible, _ColumnTypeCheckingConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    public func bind(to sqliteStatement: OpaquePointer, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int8? { databaseInteger(dbValue) }
    public init?(sqliteStatement: OpaquePointer, index: CInt) {
        guard let value: Int8 = columnInteger(sqliteStatement, index) else { return nil }
        self = value
    }
}

extension Int16: DatabaseValueConvertible, _ColumnTypeCheckingConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    public func bind(to sqliteStatement: OpaquePointer, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int16? { databaseInteger(dbValue) }
    public init?(sqliteStatement: OpaquePointer, index: CInt) {
        guard let value: Int16 = columnInteger(sqliteStatement, index) else { return nil }
        self = value
    }
}

extension Int32: DatabaseValueConvertible, _ColumnTypeCheckingConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    public func bind(to sqliteStatement: OpaquePointer, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int32? { databaseInteger(dbValue) }
    public init?(sqliteStatement: OpaquePointer, index: CInt) {
        guard let value: Int32 = columnInteger(sqliteStatement, index) else { return nil }
        self = value
    }
}

extension Int64: DatabaseValueConvertible, _ColumnTypeCheckingConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self)) }
    public func bind(to sqliteStatement: OpaquePointer, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, self)
    }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int64? { databaseInteger(dbValue) }
    @inlinable
    public init?(sqliteStatement: OpaquePointer, index: CInt) {
        guard let value: Int64 = columnInteger(sqliteStatement, index) else { return nil }
        self = value
    }
}

extension UInt: DatabaseValueConvertible, _ColumnTypeCheckingConvertible {
    /// Values above `Int64.max` do not fit an SQLite integer: they are stored as REAL.
    public var databaseValue: DatabaseValue {
        if let int = Int64(exactly: self) { return DatabaseValue(storage: .int64(int)) }
        return DatabaseValue(storage: .double(Double(self)))
    }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt? { databaseInteger(dbValue) }
    public init?(sqliteStatement: OpaquePointer, index: CInt) {
        guard let value: UInt = columnInteger(sqliteStatement, index) else { return nil }
        self = value
    }
}

extension UInt8: DatabaseValueConvertible, _ColumnTypeCheckingConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    public func bind(to sqliteStatement: OpaquePointer, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt8? { databaseInteger(dbValue) }
    public init?(sqliteStatement: OpaquePointer, index: CInt) {
        guard let value: UInt8 = columnInteger(sqliteStatement, index) else { return nil }
        self = value
    }
}

extension UInt16: DatabaseValueConvertible, _ColumnTypeCheckingConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    public func bind(to sqliteStatement: OpaquePointer, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt16? { databaseInteger(dbValue) }
    public init?(sqliteStatement: OpaquePointer, index: CInt) {
        guard let value: UInt16 = columnInteger(sqliteStatement, index) else { return nil }
        self = value
    }
}

extension UInt32: DatabaseValueConvertible, _ColumnTypeCheckingConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(Int64(self))) }
    public func bind(to sqliteStatement: OpaquePointer, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, Int64(self))
    }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt32? { databaseInteger(dbValue) }
    public init?(sqliteStatement: OpaquePointer, index: CInt) {
        guard let value: UInt32 = columnInteger(sqliteStatement, index) else { return nil }
        self = value
    }
}

extension UInt64: DatabaseValueConvertible, _ColumnTypeCheckingConvertible {
    /// Values above `Int64.max` do not fit an SQLite integer: they are stored as REAL.
    public var databaseValue: DatabaseValue {
        if let int = Int64(exactly: self) { return DatabaseValue(storage: .int64(int)) }
        return DatabaseValue(storage: .double(Double(self)))
    }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UInt64? { databaseInteger(dbValue) }
    public init?(sqliteStatement: OpaquePointer, index: CInt) {
        guard let value: UInt64 = columnInteger(sqliteStatement, index) else { return nil }
        self = value
    }
}

extension Bool: DatabaseValueConvertible, _ColumnTypeCheckingConvertible {
    /// Stored as the integer 1 or 0.
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self ? 1 : 0)) }
    public func bind(to sqliteStatement: OpaquePointer, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, self ? 1 : 0)
    }
    /// Any non-zero number is true.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Bool? {
        switch dbValue.storage {
        case .int64(let int): return int != 0
        case .double(let double): return double != 0
        default: return nil
        }
    }
    public init?(sqliteStatement: OpaquePointer, index: CInt) {
        let value = sqlite3_column_value(sqliteStatement, index)
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = sqlite3_value_int64(value) != 0
        case SQLITE_FLOAT: self = sqlite3_value_double(value) != 0
        default: return nil
        }
    }
}

extension Double: DatabaseValueConvertible, _ColumnTypeCheckingConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(self)) }
    public func bind(to sqliteStatement: OpaquePointer, at index: CInt) -> CInt {
        sqlite3_bind_double(sqliteStatement, index, self)
    }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Double? {
        switch dbValue.storage {
        case .int64(let int): return Double(int)
        case .double(let double): return double
        default: return nil
        }
    }
    @inlinable
    public init?(sqliteStatement: OpaquePointer, index: CInt) {
        let value = sqlite3_column_value(sqliteStatement, index)
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER, SQLITE_FLOAT: self = sqlite3_value_double(value)
        default: return nil
        }
    }
}

extension Float: DatabaseValueConvertible, _ColumnTypeCheckingConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(Double(self))) }
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
        Double.fromDatabaseValue(dbValue).map(Float.init)
    }
    public init?(sqliteStatement: OpaquePointer, index: CInt) {
        guard let double = Double(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = Float(double)
    }
}

extension String: DatabaseValueConvertible, _ColumnTypeCheckingConvertible {
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self)) }

    /// Binds the text with its byte count, so that NUL bytes inside it are kept.
    public func bind(to sqliteStatement: OpaquePointer, at index: CInt) -> CInt {
        if let code = utf8.withContiguousStorageIfAvailable({ Self.bind($0, sqliteStatement, index) }) {
            return code
        }
        var copy = self
        return copy.withUTF8 { Self.bind($0, sqliteStatement, index) }
    }

    private static func bind(_ buffer: UnsafeBufferPointer<UInt8>, _ sqliteStatement: OpaquePointer, _ index: CInt) -> CInt {
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            return sqlite3_bind_text(sqliteStatement, index, "", 0, nil)
        }
        guard buffer.count <= Int(CInt.max) else { return SQLITE_TOOBIG }
        return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
            sqlite3_bind_text(sqliteStatement, index, $0, CInt(buffer.count), ripple_sqlite_transient())
        }
    }
    /// Texts only; text that is not valid UTF-8 is not a String (read it as `Data`).
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
        if case .string(let string) = dbValue.storage { return string }
        return nil
    }
    @inlinable
    public init?(sqliteStatement: OpaquePointer, index: CInt) {
        let value = sqlite3_column_value(sqliteStatement, index)
        guard sqlite3_value_type(value) == SQLITE_TEXT else { return nil }
        // Read with the explicit byte count: NUL bytes inside the text are kept.
        let bytes = UnsafeBufferPointer(
            start: sqlite3_value_text(value),
            count: Int(sqlite3_value_bytes(value)))
        guard let string = validatedString(bytes) else { return nil }
        self = string
    }
}

/// The string of UTF-8 `bytes`, or nil when they are not valid UTF-8 (never repaired).
@inlinable
func validatedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    // ASCII cannot be invalid, and is checked much faster than full validation.
    var union: UInt8 = 0
    for byte in bytes { union |= byte }
    if union < 0x80 {
        // A small string (up to 15 bytes on 64-bit platforms, 10 on 32-bit ones) is built
        // with less work by this initializer than by `String(decoding:as:)`; from 16 bytes
        // on, it is the slower one (measured: Benchmarks/README.md, "Shortcuts").
        // (It repairs invalid UTF-8 instead of failing: ASCII only may come here.)
        if bytes.count <= (MemoryLayout<Int>.size == 8 ? 15 : 10) {
            return String(unsafeUninitializedCapacity: bytes.count) { buffer in
                buffer.initialize(from: bytes).index
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
    return validatedNonASCIIString(bytes)
}

/// `validatedString(_:)` for text that is not all ASCII (kept out of line).
@usableFromInline
func validatedNonASCIIString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        return String(validating: bytes, as: UTF8.self)
    }
    return decoderValidatedString(bytes)
}

/// The string of UTF-8 `bytes`, or nil when they are not valid UTF-8, checked with the
/// standard library's UTF-8 decoder: for the Apple systems older than
/// `String(validating:as:)` (macOS 15, iOS 18). Tested on every platform against it.
func decoderValidatedString(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    while true {
        switch decoder.decode(&iterator) {
        case .scalarValue: continue
        case .emptyInput: return String(decoding: bytes, as: UTF8.self)
        case .error: return nil
        }
    }
}
