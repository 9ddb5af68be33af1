// What the benchmarks need from C that Swift's Glibc module does not export.
#ifndef BENCHMARK_SUPPORT_H
#define BENCHMARK_SUPPORT_H

#include <stddef.h>

/// Bytes the C heap has handed out and not taken back (glibc's `mallinfo2`); 0 elsewhere.
size_t benchmark_heap_bytes_in_use(void);

#endif
