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
            return try RecordDecodingStorage.decodeRecord(T.self, from: rows[currentIndex], as: kind)
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
