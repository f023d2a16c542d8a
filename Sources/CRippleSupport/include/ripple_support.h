#ifndef RIPPLE_SUPPORT_H
#define RIPPLE_SUPPORT_H

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

#endif
