#ifndef RIPPLE_SUPPORT_H
#define RIPPLE_SUPPORT_H

#include <assert.h>
#include <stddef.h>

// The observation broker notifying observers on this thread, if any: what
// `stopObservingDatabaseChangesUntilNextTransaction()` and the default
// `databaseWillChange(with:)` need to find. A C thread-local costs a few instructions,
// where pthread_getspecific and pthread_setspecific cost a call each, for each statement
// that notifies observers. (Swift has no thread-local variables, and a `static` one in a
// header would exist once per object file.)
extern _Thread_local void *ripple_current_broker_storage;

static inline void *ripple_current_broker(void) {
    return ripple_current_broker_storage;
}

static inline void ripple_set_current_broker(void *broker) {
    ripple_current_broker_storage = broker;
}

// The database accesses a thread is running, innermost first: one frame per access,
// pushed when the access starts running on the thread and popped when it ends. Frames live
// on the Swift stack of the access (see `AccessChain` in Swift), so they are popped in the
// reverse order of their pushes, and a frame is never read after it is popped: that is the
// invariant, checked by `ripple_access_pop`.
typedef struct ripple_access_frame {
    // The identity of the connection the access runs on (never dereferenced).
    const void *connection;
    const struct ripple_access_frame *parent;
} ripple_access_frame;

extern _Thread_local const ripple_access_frame *ripple_access_top;

// The connection of the innermost access (`ripple_access_top->connection`), or the address
// of `ripple_access_none` when the thread runs none (never NULL, so that no connection,
// not even a NULL one, matches a thread without accesses). The check that a statement row
// makes on each value it reads compares it first, with one load and no frame to follow,
// and walks the chain only when it differs. Kept equal to the top frame's connection by
// `ripple_access_push` and `ripple_access_pop`.
extern const char ripple_access_none;
extern _Thread_local const void *ripple_access_innermost;

static inline void ripple_access_push(ripple_access_frame *frame) {
    frame->parent = ripple_access_top;
    ripple_access_top = frame;
    ripple_access_innermost = frame->connection;
}

static inline int ripple_access_pop(const ripple_access_frame *frame) {
    if (ripple_access_top != frame) return 0;
    ripple_access_top = frame->parent;
    ripple_access_innermost = frame->parent != NULL ? frame->parent->connection : &ripple_access_none;
    return 1;
}

// The connection of the innermost access, NULL when the thread runs none (for tests).
static inline const void *ripple_access_innermost_connection(void) {
    return ripple_access_innermost == &ripple_access_none ? NULL : ripple_access_innermost;
}

// The invariant above, for debug checks.
static inline int ripple_access_innermost_is_consistent(void) {
    return ripple_access_innermost == (ripple_access_top != NULL ? ripple_access_top->connection : &ripple_access_none);
}

// Whether the thread runs an access to `connection` (NULL: never).
static inline int ripple_access_holds(const void *connection) {
    if (ripple_access_innermost == connection) return 1;
    if (connection == NULL || ripple_access_top == NULL) return 0;
    // The innermost frame was compared above; the accesses around it remain.
    for (const ripple_access_frame *frame = ripple_access_top->parent; frame != NULL; frame = frame->parent) {
        if (frame->connection == connection) return 1;
    }
    return 0;
}

// Row decoding scopes: how many fetches building records run on this thread, and the
// first value a non-throwing row subscript could not convert inside the innermost one (a
// retained Swift object, or NULL). The fetch throws it after `init(row:)` returns: see
// `RowDecodingScope` in Swift. Thread-locals, so that a fetch costs no lock and no call.
extern _Thread_local unsigned ripple_row_decoding_depth;
extern _Thread_local void *ripple_row_decoding_failure;

static inline void ripple_row_decoding_enter(void) {
    ripple_row_decoding_depth += 1;
}

// Leaves the innermost scope; returns whether a failure waits to be taken.
static inline int ripple_row_decoding_leave(void) {
    assert(ripple_row_decoding_depth > 0);
    ripple_row_decoding_depth -= 1;
    return ripple_row_decoding_failure != NULL;
}

static inline unsigned ripple_row_decoding_current_depth(void) {
    return ripple_row_decoding_depth;
}

static inline void *ripple_row_decoding_current_failure(void) {
    return ripple_row_decoding_failure;
}

static inline void ripple_row_decoding_set_failure(void *failure) {
    ripple_row_decoding_failure = failure;
}

// A decoder offered to the next copied row that decodes a record on this thread: the
// records of prefetched rows share one (see `PrefetchedRowsDecoder` in Swift). An
// unretained Swift object, or NULL; its offerer keeps it alive while it is offered.
extern _Thread_local void *ripple_offered_row_decoder_storage;

static inline void *ripple_offered_row_decoder(void) {
    return ripple_offered_row_decoder_storage;
}

static inline void ripple_offer_row_decoder(void *decoder) {
    ripple_offered_row_decoder_storage = decoder;
}

// The suspension of a connection (see `InterruptHandle` in Swift): a number that any
// thread sets and the connection's thread reads before each statement (0: not
// suspended). C11 atomics, because Swift's `Atomic` needs macOS 15, and a lock would cost
// every statement a lock and an unlock. Made by `ripple_atomic_word_create` (zero), freed
// by `ripple_atomic_word_destroy`.
#include <stdatomic.h>
#include <stdint.h>

void *ripple_atomic_word_create(void);
void ripple_atomic_word_destroy(void *word);

static inline intptr_t ripple_atomic_word_load(const void *word) {
    return atomic_load_explicit((const _Atomic(intptr_t) *)word, memory_order_acquire);
}

static inline void ripple_atomic_word_store(void *word, intptr_t value) {
    atomic_store_explicit((_Atomic(intptr_t) *)word, value, memory_order_release);
}

#if defined(__linux__)
#include <stdint.h>

// Waits until `first` (skipped when negative) or `second` is readable, or `timeout_ns`
// nanoseconds passed (negative: no limit), with `ppoll`, which Swift's Glibc module does
// not show (it needs _GNU_SOURCE); `poll` counts in milliseconds, four times the shortest
// interval between two checks for other processes' commits. Returns a bit mask: 1 when
// `first` is readable (or failed), 2 when `second` is; 0 on timeout or signal.
int ripple_wait_readable(int first, int second, int64_t timeout_ns);

// Names the current thread (`pthread_setname_np`, also hidden without _GNU_SOURCE);
// longer names are cut to the kernel's 15 bytes.
void ripple_set_thread_name(const char *name);

// A non-blocking, close-on-exec pipe (`pipe2`, also hidden without _GNU_SOURCE): 0 on
// success, -1 with errno otherwise.
int ripple_nonblocking_pipe(int descriptors[2]);
#endif

#endif
