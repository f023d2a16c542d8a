/// Returns a kept `KeyedDecodingContainer<Key>` from a decoder without a generic metadata
/// lookup.
///
/// A decoder's `container(keyedBy:)` is generic over `Key` and always runs unspecialized
/// (the record's `init(from:)` calls it through `any Decoder`). Returning a
/// `KeyedDecodingContainer<Key>` from there makes Swift copy it through the value witnesses
/// of its type, which it finds by asking the runtime for the metadata of
/// `KeyedDecodingContainer<Key>`: a lookup in a global hash table, about 330 instructions,
/// for every `Decodable` record, where decoding the five columns of a record costs about
/// 1,000 more.
///
/// The container is a single reference to the standard library's box around the
/// decoder's own container. The decoder keeps the box it handed out last, and returns a
/// new reference to it through a C function (`ripple_keyed_decoding_container`, in
/// CRippleSupport) declared here with Swift's calling convention: it stores the reference
/// in the caller's result buffer, for any `Key`, with no metadata.
///
/// This relies on the layout of `KeyedDecodingContainer`, which the standard library does
/// not promise, so it is checked once at run time (`isAvailable`): the container must be
/// the size of one reference, not plain bytes, and a container rebuilt from the reference
/// of another must reach the same underlying container. When the check fails, decoders
/// copy the container the ordinary way.
enum KeyedDecodingContainerReturn {
    /// Whether containers can be returned from their box on this platform.
    static let isAvailable: Bool = {
        typealias Probe = KeyedDecodingContainer<ProbeKey>
        guard MemoryLayout<Probe>.size == MemoryLayout<AnyObject>.size,
              MemoryLayout<Probe>.alignment == MemoryLayout<AnyObject>.alignment,
              !_isPOD(Probe.self)
        else { return false }
        let original = Probe(ProbeContainer())
        let rebuilt: Probe = container(fromBox: box(of: original))
        let value = try? rebuilt.decode(Int.self, forKey: ProbeKey(stringValue: "probe"))
        return value == ProbeContainer.answer && rebuilt.codingPath.first?.stringValue == ProbeContainer.pathMarker
    }()

    /// The box of `container`, unretained: valid while `container` lives. Only when
    /// `isAvailable`.
    static func box<Key>(of container: KeyedDecodingContainer<Key>) -> Unmanaged<AnyObject> {
        withUnsafeBytes(of: container) { Unmanaged.passUnretained($0.load(as: AnyObject.self)) }
    }

    /// A container with a new reference to `box`. Only when `isAvailable`.
    @inline(__always)
    static func container<Key>(fromBox box: Unmanaged<AnyObject>) -> KeyedDecodingContainer<Key> {
        rippleKeyedDecodingContainer(box.retain().toOpaque())
    }

    private struct ProbeKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A container that answers one value, so that the check sees a rebuilt container
    /// reach it.
    private struct ProbeContainer: KeyedDecodingContainerProtocol {
        static let answer = 0x5eed
        static let pathMarker = "ripple-probe"
        var codingPath: [any CodingKey] { [ProbeKey(stringValue: Self.pathMarker)] }
        var allKeys: [ProbeKey] { [] }
        func contains(_ key: ProbeKey) -> Bool { key.stringValue == "probe" }
        func decodeNil(forKey key: ProbeKey) throws -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type, forKey key: ProbeKey) throws -> T {
            guard key.stringValue == "probe", let answer = Self.answer as? T else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "probe"))
            }
            return answer
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: ProbeKey) throws -> KeyedDecodingContainer<NestedKey> {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "probe"))
        }
        func nestedUnkeyedContainer(forKey key: ProbeKey) throws -> any UnkeyedDecodingContainer {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "probe"))
        }
        func superDecoder() throws -> any Decoder {
            throw DecodingError.keyNotFound(ProbeKey(stringValue: "super"), .init(codingPath: codingPath, debugDescription: "probe"))
        }
        func superDecoder(forKey key: ProbeKey) throws -> any Decoder {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "probe"))
        }
    }
}

/// Implemented in C (CRippleSupport) with Swift's calling convention: stores `box` in the
/// indirect result. `Key`'s metadata and witness table are passed and ignored.
@_silgen_name("ripple_keyed_decoding_container")
private func rippleKeyedDecodingContainer<Key: CodingKey>(_ box: UnsafeMutableRawPointer) -> KeyedDecodingContainer<Key>
