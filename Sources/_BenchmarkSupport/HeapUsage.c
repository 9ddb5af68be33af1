#include "_BenchmarkSupport.h"

#if defined(__linux__)
#include <malloc.h>
#endif

size_t benchmark_heap_bytes_in_use(void) {
#if defined(__GLIBC__)
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;  // small blocks in use, and large ones mapped on their own
#else
    return 0;
#endif
}
