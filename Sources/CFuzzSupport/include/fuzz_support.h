#ifndef RIPPLE_FUZZ_SUPPORT_H
#define RIPPLE_FUZZ_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver, from libclang_rt.fuzzer_no_main (linked by Scripts/fuzz only): it
// parses libFuzzer's command line and calls `callback` with each input.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
