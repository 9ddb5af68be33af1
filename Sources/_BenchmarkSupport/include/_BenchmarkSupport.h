// What the benchmarks need from C that Swift's Glibc module does not export.
#ifndef BENCHMARK_SUPPORT_H
#define BENCHMARK_SUPPORT_H

#include <stddef.h>

/// Bytes the C heap has handed out and not taken back (glibc's `mallinfo2`); 0 elsewhere.
size_t benchmark_heap_bytes_in_use(void);

/// Calls `body(context)`: the one function whose instructions and calls `Scripts/check-figures.sh` has callgrind
/// count (`--toggle-collect=benchmark_measured`). In C, so that Swift's optimizer does not specialize it for its
/// closures under other names.
void benchmark_measured(void (*_Nonnull body)(void *_Nullable), void *_Nullable context);

#endif
