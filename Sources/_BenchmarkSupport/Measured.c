#include "_BenchmarkSupport.h"

// Not a tail call: callgrind must see the function return, to stop counting there.
__attribute__((noinline, disable_tail_calls)) void benchmark_measured(void (*_Nonnull body)(void *_Nullable),
                                                                      void *_Nullable context) {
    body(context);
}
