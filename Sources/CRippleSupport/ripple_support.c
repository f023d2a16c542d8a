#include "ripple_support.h"

_Thread_local void *ripple_current_broker_storage = 0;

// `KeyedDecodingContainer<Key>` from its box, for any `Key`, without asking the Swift
// runtime for the generic metadata of `KeyedDecodingContainer<Key>` (a hash table lookup
// for each `Decodable` record). Called from Swift through `@_silgen_name` with Swift's
// calling convention: the container is returned indirectly, and the `Key` metadata and
// witness table that Swift passes after `box` are not read. `box` is a +1 reference that
// the returned container owns. Swift checks, once, that the container is a single
// reference to its box before using this (see `KeyedDecodingContainerReturn`).
// `swiftcall` is clang's name for Swift's calling convention, which the Swift runtime's
// own C++ code uses: clang supports it on every platform Swift runs on.
__attribute__((swiftcall))
void ripple_keyed_decoding_container(__attribute__((swift_indirect_result)) void **result, void *box) {
    *result = box;
}
