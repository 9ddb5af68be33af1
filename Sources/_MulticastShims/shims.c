// The shims' atomics are in the header, inline; what diagnostics use out of line is here.
#include "_MulticastShims.h"

#if defined(_WIN32)
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <time.h>
#endif

intptr_t _multicast_diagnosed = 0;

uint64_t _multicast_monotonic_nanoseconds(void) {
#if defined(_WIN32)
    LARGE_INTEGER counter, frequency;
    QueryPerformanceCounter(&counter);
    QueryPerformanceFrequency(&frequency);
    // Whole seconds and the remainder apart, so that the product does not overflow 64 bits.
    uint64_t ticks = (uint64_t)counter.QuadPart, perSecond = (uint64_t)frequency.QuadPart;
    return ticks / perSecond * 1000000000u + ticks % perSecond * 1000000000u / perSecond;
#else
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
#endif
}

static _Thread_local intptr_t hooksRunning = 0;

intptr_t _multicast_hooks_running(void) {
    return hooksRunning;
}

void _multicast_hooks_running_add(intptr_t value) {
    hooksRunning += value;
}
