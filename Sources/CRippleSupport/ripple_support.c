#if defined(__linux__)
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#endif

#include "ripple_support.h"

#include <stdlib.h>

_Thread_local void *ripple_current_broker_storage = 0;

_Thread_local const ripple_access_frame *ripple_access_top = 0;
const char ripple_access_none = 0;
_Thread_local const void *ripple_access_innermost = &ripple_access_none;

_Thread_local unsigned ripple_row_decoding_depth = 0;
_Thread_local void *ripple_row_decoding_failure = 0;

_Thread_local void *ripple_offered_row_decoder_storage = 0;

void *ripple_atomic_word_create(void) {
    _Atomic(intptr_t) *word = malloc(sizeof *word);
    if (word != NULL) atomic_init(word, 0);
    return word;
}

void ripple_atomic_word_destroy(void *word) {
    free(word);
}

#if defined(__linux__)
int ripple_wait_readable(int first, int second, int64_t timeout_ns) {
    struct pollfd descriptors[2] = {
        { .fd = first, .events = POLLIN, .revents = 0 },
        { .fd = second, .events = POLLIN, .revents = 0 },
    };
    struct timespec timeout;
    if (timeout_ns >= 0) {
        timeout.tv_sec = (time_t)(timeout_ns / 1000000000);
        timeout.tv_nsec = (long)(timeout_ns % 1000000000);
    }
    // (A negative descriptor is ignored by ppoll.)
    int count = ppoll(descriptors, 2, timeout_ns >= 0 ? &timeout : NULL, NULL);
    if (count <= 0) return 0;
    int mask = 0;
    if (descriptors[0].revents != 0) mask |= 1;
    if (descriptors[1].revents != 0) mask |= 2;
    return mask;
}

void ripple_set_thread_name(const char *name) {
    char truncated[16];
    strncpy(truncated, name, sizeof truncated - 1);
    truncated[sizeof truncated - 1] = 0;
    pthread_setname_np(pthread_self(), truncated);
}

int ripple_nonblocking_pipe(int descriptors[2]) {
    return pipe2(descriptors, O_NONBLOCK | O_CLOEXEC);
}
#endif
