#include <stdlib.h>
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 33)
#include <malloc.h>
/// Bytes the allocator has handed out and not got back, in every arena (glibc).
static inline long long bench_heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return (long long)(info.uordblks + info.hblkhd);
}
#else
static inline long long bench_heap_in_use(void) { return -1; }
#endif
