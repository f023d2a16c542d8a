import CRippleSupport

/// Decodes the records of a prefetched association (`including(all:)`), as an array or a
/// set: `var books: [Book]`.
struct PrefetchedRowsDecoder: Decoder {
    let rows: [Row]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch(type, .init(codingPath: [], debugDescription: "prefetched rows decode as a collection of records"))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Container(rows: rows) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(Any.self, .init(codingPath: [], debugDescription: "prefetched rows decode as a collection of records"))
    }

    struct Container: UnkeyedDecodingContainer {
        let rows: [Row]
        var currentIndex = 0
        /// What the elements are, found at the first one (all have one type).
        var kind: (type: ObjectIdentifier, kind: RecordDecodingStorage.NestedKind)? = nil
        /// The decoder that the records share, from one row to the next.
        var sharedDecoder: SharedRecordDecoder? = nil
        var codingPath: [any CodingKey] { [] }
        var count: Int? { rows.count }
        var isAtEnd: Bool { currentIndex >= rows.count }

        mutating func decodeNil() throws -> Bool { false }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(type, .init(codingPath: [], debugDescription: "no more prefetched rows"))
            }
            defer { currentIndex += 1 }
            let kind: RecordDecodingStorage.NestedKind
            if let known = self.kind, known.type == ObjectIdentifier(T.self) {
                kind = known.kind
            } else {
                kind = RecordDecodingStorage.NestedKind(T.self)
                self.kind = (ObjectIdentifier(T.self), kind)
            }
            // Values (`var names: [String]` of an association that selects one column):
            // the first column.
            if kind.isValue, let valueType = T.self as? any DatabaseValueConvertible.Type {
                let row = rows[currentIndex]
                let dbValue = row.databaseValue(atIndex: 0)
                guard let value = valueType.fromDatabaseValue(dbValue) else {
                    throw DecodingError.typeMismatch(T.self, .init(codingPath: [], debugDescription: "could not decode \(T.self) from \(dbValue)"))
                }
                return value as! T
            }
            let row = rows[currentIndex]
            if kind.recordType != nil {
                let shared: SharedRecordDecoder
                if let current = sharedDecoder, current.move(to: row) {
                    shared = current
                } else {
                    shared = SharedRecordDecoder(row)
                    sharedDecoder = shared
                }
                return try shared.decode { try RecordDecodingStorage.decodeRecord(T.self, from: row, as: kind) }
            }
            return try RecordDecodingStorage.decodeRecord(T.self, from: row, as: kind)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.typeMismatch(type, .init(codingPath: [], debugDescription: "prefetched rows decode as records"))
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: [], debugDescription: "prefetched rows decode as records"))
        }

        mutating func superDecoder() throws -> any Decoder {
            throw DecodingError.typeMismatch(Any.self, .init(codingPath: [], debugDescription: "prefetched rows decode as records"))
        }
    }
}

/// One decoder for the records of prefetched rows, moved from one row to the next, as a
/// cursor's row keeps its decoder: the records of an association get the same keyed
/// container, with its predicted column indexes, instead of a new decoder and container
/// each (generic metadata, allocations, column lookups by name).
///
/// The rows come from one query: they have the same columns, which the move checks.
final class SharedRecordDecoder {
    private let decoder: DatabaseRowDecoder
    private let columnNames: [String]

    init(_ row: Row) {
        decoder = DatabaseRowDecoder(row: row, ownsRow: false, sharingPredictions: false)
        columnNames = row.columnNames
    }

    /// Moves the decoder to `row`; false when its columns differ.
    func move(to row: Row) -> Bool {
        guard row.columnNames == columnNames else { return false }
        decoder.state.storage.pointer.pointee.move(to: row)
        return true
    }

    /// Runs `body`, in which the first record decoded from the current row gets the
    /// decoder (see `Row.rowDecoder`).
    func decode<R>(_ body: () throws -> R) rethrows -> R {
        let previous = ripple_offered_row_decoder()
        ripple_offer_row_decoder(_CallbackContext.unretained(decoder))
        defer {
            ripple_offer_row_decoder(previous)
            _CallbackContext.revoke(decoder)
        }
        return try body()
    }

    deinit {
        // The rows go with the container: a decoder kept beyond it fails its check (it
        // does not keep its row alive).
        decoder.state.release(generation: decoder.generation)
    }
}
