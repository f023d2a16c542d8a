/// Finds the column index of each coding key of `Decodable` records without asking keys
/// for their names: the companion of ``ColumnIndexPrediction`` for keyed decoding
/// containers.
///
/// A record's `init(from:)` decodes the same keys in the same order on every row. This
/// remembers the keys in the order they were asked for, identified by their type and the
/// bytes of their value, and predicts that the next key is the one that followed the
/// previous one. A right prediction costs two comparisons; asking a key for its
/// `stringValue` (a call through a protocol witness that builds a `String`) and comparing
/// names costs several times that.
///
/// Keys are identified by value only for types that are plain bytes (no references) of at
/// most 8 bytes, which covers the keys of synthesized `Codable` conformances (enums). Other
/// keys are looked up by name. A key's name is assumed to depend on its value only, as
/// `CodingKey` implies: two keys of one type with the same bytes have the same name.
struct CodingKeyPrediction {
    /// A key asked for, and its column index (-1: no such column).
    struct Entry {
        let keyType: ObjectIdentifier
        let keyBits: UInt64
        let index: Int
        var columnIndex: Int? { index < 0 ? nil : index }
    }

    /// The keys asked for, in the order they were asked.
    private var entries: ContiguousArray<Entry> = []
    private var position = 0

    /// The number of keys remembered at most, so that random access patterns cannot grow
    /// the cache without bound.
    private static var capacity: Int { 256 }

    init() {}

    /// Called when a record starts decoding: the next key is predicted to be the first one
    /// again.
    @inline(__always)
    mutating func rewind() { position = 0 }

    /// The column index of `key`; `lookup` finds it from the key's name when the key
    /// cannot be identified by value, or was not seen before.
    @inline(__always)
    mutating func index<Key: CodingKey>(of key: Key, lookup: (String) -> Int?) -> Int? {
        guard let bits = Self.bits(of: key) else { return lookup(key.stringValue) }
        let current = position
        if current < entries.count {
            let entry = entries[current]
            if entry.keyBits == bits && entry.keyType == ObjectIdentifier(Key.self) {
                position = current + 1
                return entry.columnIndex
            }
        }
        return mispredictedIndex(of: key, bits: bits, lookup: lookup)
    }

    private mutating func mispredictedIndex<Key: CodingKey>(of key: Key, bits: UInt64, lookup: (String) -> Int?) -> Int? {
        // Another record type, or another order: find the key in the sequence.
        let keyType = ObjectIdentifier(Key.self)
        if let known = entries.firstIndex(where: { $0.keyBits == bits && $0.keyType == keyType }) {
            position = known + 1
            return entries[known].columnIndex
        }
        let index = lookup(key.stringValue)
        if entries.count < Self.capacity {
            entries.append(Entry(keyType: keyType, keyBits: bits, index: index ?? -1))
            position = entries.count
        }
        return index
    }

    /// The bytes of `key`, when its type is plain bytes of at most 8 bytes; nil otherwise.
    ///
    /// In unspecialized generic code (where decoding containers run), this reads the type's
    /// value witness flags and size, and loads the value in place.
    @inline(__always)
    static func bits<Key>(of key: Key) -> UInt64? {
        guard _isPOD(Key.self) else { return nil }
        switch MemoryLayout<Key>.size {
        case 0: return 0
        case 1: return UInt64(unsafeBitCast(key, to: UInt8.self))
        case 2: return UInt64(unsafeBitCast(key, to: UInt16.self))
        case 4: return UInt64(unsafeBitCast(key, to: UInt32.self))
        case 8: return unsafeBitCast(key, to: UInt64.self)
        default: return nil
        }
    }
}
