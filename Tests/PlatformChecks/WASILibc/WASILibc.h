// What Multicast uses from wasi-libc, WebAssembly's C library for WASI, declared as its headers declare it for
// wasm32, so that the WASI branches compile on a machine without the SDK (Scripts/check-other-platforms.sh):
// the shims' clock (Sources/_MulticastShims/shims.c), through <time.h>, which includes this file. The library's
// Swift code uses nothing of wasi-libc: without threads its lock has no state, and with them it uses
// wasi_pthread (Tests/PlatformChecks/wasi_pthread).
//
// Add a declaration here only when a WASI branch uses it, and only as the named header declares it.
#ifndef MULTICAST_WASILIBC_STAND_IN_H
#define MULTICAST_WASILIBC_STAND_IN_H

// <bits/alltypes.h> and <__struct_timespec.h>: `time_t` has 64 bits.
typedef long long time_t;
struct timespec {
    time_t tv_sec;
    long tv_nsec;
};

// <__typedef_clockid_t.h> and <__header_time.h>: a clock is a pointer to a constant that wasi-libc defines, and
// each `CLOCK_...` name is a macro for its address.
typedef const struct __clockid *clockid_t;
extern const struct __clockid _CLOCK_MONOTONIC;
#define CLOCK_MONOTONIC (&_CLOCK_MONOTONIC)

int clock_gettime(clockid_t, struct timespec *);

#endif
