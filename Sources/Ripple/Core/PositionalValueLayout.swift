import CSQLite
import Foundation

/// How positional values, `(any DatabaseValueConvertible)?`, lie in memory, so that
/// statements bind them where they lie.
///
/// Binding `[1, "Arthur", nil]` through the protocol unwraps each optional existential:
/// Swift copies it out of the array (with its reference counting), asks its type for the
/// enum tag, calls the witness, and destroys the copy; for a five-column insert that costs
/// more than SQLite's binding itself. Instead, the binding loop reads the type of each
/// value from its existential container, and binds the common types (`Int`, `Int64`,
/// `Double`, `String`) and nil directly; other types go through the protocol.
///
/// The layout is Swift's for optionals of opaque existentials: a three-word inline buffer
/// that holds values of these types at its start, then the type metadata pointer, null for
/// nil. It is checked once, with sample values, before any use: if the check fails, binding
/// goes through the protocol for every value.
struct PositionalValueLayout: Sendable {
    typealias Element = (any DatabaseValueConvertible)?

    /// The offset of the type metadata pointer in an existential container: after its
    /// three-word inline buffer.
    static let metadataOffset = 3 * MemoryLayout<UInt>.size
    static let stride = MemoryLayout<Element>.stride

    /// The type metadata of the common types. (Identifiers: an optional layout takes no
    /// extra tag, which the binding loop would test.)
    let int: ObjectIdentifier
    let int64: ObjectIdentifier
    let double: ObjectIdentifier
    let string: ObjectIdentifier

    /// The layout, when the check passes on this platform.
    static let verified: PositionalValueLayout? = {
        guard MemoryLayout<Element>.size == MemoryLayout<any DatabaseValueConvertible>.size,
            stride == MemoryLayout<any DatabaseValueConvertible>.stride,
            MemoryLayout<Element>.size >= metadataOffset + MemoryLayout<UInt>.size
        else { return nil }
        let layout = PositionalValueLayout(
            int: metadata(of: Int.self), int64: metadata(of: Int64.self),
            double: metadata(of: Double.self), string: metadata(of: String.self))
        let long = String(repeating: "long text, not stored inline in a String", count: 2)
        let samples: [Element] = [nil, Int(-42), Int64.min, 2.5, "small", long, Data([1]), Int32(3), nil]
        let passes = samples.withUnsafeBufferPointer { buffer -> Bool in
            let raw = UnsafeRawPointer(buffer.baseAddress!)
            for (index, sample) in samples.enumerated() {
                let element = raw + index * stride
                let value = layout.value(at: element)
                switch sample {
                case nil: guard case .null = value else { return false }
                case let int as Int: guard case .int(let read) = value, read == int else { return false }
                case let int64 as Int64: guard case .int64(let read) = value, read == int64 else { return false }
                case let double as Double: guard case .double(let read) = value, read == double else { return false }
                case let string as String: guard case .string(let read) = value, read == string else { return false }
                default: guard case .other = value else { return false }
                }
            }
            return true
        }
        return passes ? layout : nil
    }()

    private static func metadata(of type: Any.Type) -> ObjectIdentifier {
        ObjectIdentifier(type)
    }

    /// A positional value read where it lies.
    enum Value {
        case null
        case int(Int)
        case int64(Int64)
        case double(Double)
        case string(String)
        /// Another type: bind it through the protocol.
        case other
    }

    /// The value of the element at `element`, the address of an `Element`.
    @inline(__always)
    func value(at element: UnsafeRawPointer) -> Value {
        guard let metadata = element.load(fromByteOffset: Self.metadataOffset, as: ObjectIdentifier?.self) else {
            return .null
        }
        if metadata == int64 { return .int64(element.load(as: Int64.self)) }
        if metadata == int { return .int(element.load(as: Int.self)) }
        if metadata == double { return .double(element.load(as: Double.self)) }
        if metadata == string { return .string(element.load(as: String.self)) }
        return .other
    }
}

extension Statement {
    /// Binds the positional values of `buffer` from `start` on: the common types read where
    /// they lie (see ``PositionalValueLayout``), the others through the protocol.
    @inline(__always)
    func bindPositional(_ buffer: UnsafeBufferPointer<PositionalValueLayout.Element>, from start: Int, _ arguments: StatementArguments) throws {
        guard let base = buffer.baseAddress else { return }
        let layout = PositionalValueLayout.verified
        let raw = UnsafeRawPointer(base)
        for offset in 0..<parameterCount {
            let index = CInt(offset + 1)
            let code: CInt
            switch layout?.value(at: raw + (start + offset) * PositionalValueLayout.stride) ?? .other {
            case .null: code = sqlite3_bind_null(sqliteStatement, index)
            case .int64(let value): code = value.bind(to: sqliteStatement, at: index)
            case .int(let value): code = value.bind(to: sqliteStatement, at: index)
            case .double(let value): code = value.bind(to: sqliteStatement, at: index)
            case .string(let value): code = value.bind(to: sqliteStatement, at: index)
            case .other: code = buffer[start + offset]?.bind(to: sqliteStatement, at: index) ?? sqlite3_bind_null(sqliteStatement, index)
            }
            if code != SQLITE_OK { throw bindingError(code, arguments) }
        }
    }
}
