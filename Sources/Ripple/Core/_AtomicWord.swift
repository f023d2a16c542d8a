import CRippleSupport

/// A word that any thread reads and writes atomically (C11 atomics, in `CRippleSupport`).
///
/// Invariant: the word is allocated in `init`, freed in `deinit`, and only reached through
/// the atomic functions.
final class _AtomicWord: @unchecked Sendable {  // the word is only reached atomically
    private let word: UnsafeMutableRawPointer

    init() {
        guard let word = ripple_atomic_word_create() else { fatalError("out of memory") }
        self.word = word
    }

    deinit {
        ripple_atomic_word_destroy(word)
    }

    @inline(__always)
    func load() -> Int { ripple_atomic_word_load(word) }

    @inline(__always)
    func store(_ value: Int) { ripple_atomic_word_store(word, value) }
}
