/// Finds the column index of each coding key of `Decodable` records without asking keys
/// for their names: an ``IndexPrediction`` of keys identified by their type and the bytes
/// of their value.
///
/// A record's `init(from:)` decodes the same keys in the same order on every row, so the
/// next key is predicted to be the one that followed the previous one. A right prediction
/// costs two comparisons; asking a key for its `stringValue` (a call through a protocol
/// witness that builds a `String`) and comparing names costs several times that.
///
/// Keys are identified by value only for types smaller than a pointer, which hold no
/// reference (a reference takes a pointer's size) and are plain bytes: this covers the keys
/// of synthesized `Codable` conformances (enums of one or two bytes). Other keys are looked
/// up by name. A key's name is assumed to depend on its value only, as
/// `CodingKey` implies: two keys of one type with the same bytes have the same name.
struct CodingKeyPrediction {
    /// A key's type and bytes.
    struct KeyIdentity: Equatable {
        let bits: UInt64
        let type: ObjectIdentifier
    }

    private var prediction = IndexPrediction<KeyIdentity>()

    init() {}

    /// The number of keys remembered (for tests).
    var count: Int { prediction.entries.count }
    var isEmpty: Bool { prediction.entries.isEmpty }

    /// Called when a record starts decoding: the next key is predicted to be the first one
    /// again.
    @inline(__always)
    mutating func rewind() { prediction.rewind() }

    /// The column index of `key`; `lookup` finds it from the key's name when the key
    /// cannot be identified by value, or was not seen before.
    @inline(__always)
    mutating func index<Key: CodingKey>(of key: Key, lookup: (String) -> Int?) -> Int? {
        guard let bits = Self.bits(of: key) else { return lookup(key.stringValue) }
        return prediction.index(of: KeyIdentity(bits: bits, type: ObjectIdentifier(Key.self))) { lookup(key.stringValue) }
    }

    /// The bytes of `key`, when its type is smaller than a pointer (so it holds no
    /// reference: its bytes are its value); nil otherwise.
    ///
    /// In unspecialized generic code (where decoding containers run), this reads the type's
    /// size, and loads the value in place.
    @inline(__always)
    static func bits<Key>(of key: Key) -> UInt64? {
        // A reference is a pointer's size: a smaller type has none (the supported test;
        // `_isPOD` is not supported language). 8-byte keys without references are rare,
        // and looked up by name.
        guard MemoryLayout<Key>.size < MemoryLayout<UnsafeRawPointer>.size else { return nil }
        switch MemoryLayout<Key>.size {
        case 0: return 0
        case 1: return UInt64(load(key, as: UInt8.self))
        case 2: return UInt64(load(key, as: UInt16.self))
        case 4: return UInt64(load(key, as: UInt32.self))
        default: return nil
        }
    }

    /// The bytes of `key` as an integer of its size, which holds no reference (see above;
    /// the cast checks that the sizes are equal).
    @inline(__always)
    private static func load<Key, Bits: FixedWidthInteger>(_ key: Key, as: Bits.Type) -> Bits {
        unsafeBitCast(key, to: Bits.self)
    }
}
