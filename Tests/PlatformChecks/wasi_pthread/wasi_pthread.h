// What Multicast's lock uses from wasi-libc's <pthread.h> on WebAssembly with threads (the pthread branch of
// Sources/_MulticastCore/Lock.swift), declared as wasi-libc, which takes them from musl, declares them for
// wasm32 (32-bit `long` and pointers), so that the branch compiles for wasm32-unknown-wasip1-threads on a machine
// without the SDK (Scripts/check-other-platforms.sh). musl's headers carry no nullability.
//
// Add a declaration here only when the lock's branch uses it, and only as the named header declares it.
#ifndef MULTICAST_WASI_PTHREAD_STAND_IN_H
#define MULTICAST_WASI_PTHREAD_STAND_IN_H

// <bits/alltypes.h>: six words when `long` has 32 bits.
typedef struct {
    union {
        int __i[sizeof(long) == 8 ? 10 : 6];
        volatile int __vi[sizeof(long) == 8 ? 10 : 6];
        volatile void *volatile __p[sizeof(long) == 8 ? 5 : 6];
    } __u;
} pthread_mutex_t;

typedef struct {
    unsigned __attr;
} pthread_mutexattr_t;

// <pthread.h>: the mutex kinds are macros.
#define PTHREAD_MUTEX_NORMAL 0
#define PTHREAD_MUTEX_RECURSIVE 1
#define PTHREAD_MUTEX_ERRORCHECK 2

int pthread_mutexattr_init(pthread_mutexattr_t *);
int pthread_mutexattr_settype(pthread_mutexattr_t *, int);
int pthread_mutexattr_destroy(pthread_mutexattr_t *);
int pthread_mutex_init(pthread_mutex_t *__restrict, const pthread_mutexattr_t *__restrict);
int pthread_mutex_destroy(pthread_mutex_t *);
int pthread_mutex_lock(pthread_mutex_t *);
int pthread_mutex_unlock(pthread_mutex_t *);

#endif
