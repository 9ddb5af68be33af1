// What Multicast uses from bionic, Android's C library, declared as the NDK's headers declare it, so that the
// Android branches compile for aarch64-unknown-linux-android on a machine without the NDK
// (Scripts/check-other-platforms.sh): the lock's pthread branch (Sources/_MulticastCore/Lock.swift) through the
// module, and the shims' clock (Sources/_MulticastShims/shims.c) through <time.h>, which includes this file.
// Types, sizes and nullability are bionic's, for 64- and 32-bit targets (`__LP64__`), so that the Swift importer
// gives the code what it would get from the NDK.
//
// Add a declaration here only when an Android branch uses it, and only as the named header declares it.
#ifndef MULTICAST_ANDROID_STAND_IN_H
#define MULTICAST_ANDROID_STAND_IN_H

#include <stdint.h>

// <bits/pthread_types.h>: opaque arrays of 32-bit words; the attributes are a `long`.
typedef struct {
#if defined(__LP64__)
    int32_t __private[10];
#else
    int32_t __private[1];
#endif
} pthread_mutex_t;

typedef long pthread_mutexattr_t;

// <pthread.h>: the mutex kinds are the enumerators of an anonymous enum (which Swift imports as `Int`).
enum {
    PTHREAD_MUTEX_NORMAL = 0,
    PTHREAD_MUTEX_RECURSIVE = 1,
    PTHREAD_MUTEX_ERRORCHECK = 2,
};

int pthread_mutexattr_init(pthread_mutexattr_t *_Nonnull __attr);
int pthread_mutexattr_settype(pthread_mutexattr_t *_Nonnull __attr, int __type);
int pthread_mutexattr_destroy(pthread_mutexattr_t *_Nonnull __attr);
int pthread_mutex_init(pthread_mutex_t *_Nonnull __mutex, const pthread_mutexattr_t *_Nullable __attr);
int pthread_mutex_destroy(pthread_mutex_t *_Nonnull __mutex);
int pthread_mutex_lock(pthread_mutex_t *_Nonnull __mutex);
int pthread_mutex_unlock(pthread_mutex_t *_Nonnull __mutex);

// <time.h>, <linux/time.h> and <bits/timespec.h>: the clock is a kernel `int`, CLOCK_MONOTONIC a macro.
typedef long time_t;
typedef int clockid_t;
struct timespec {
    time_t tv_sec;
    long tv_nsec;
};
#define CLOCK_MONOTONIC 1

int clock_gettime(clockid_t __clock, struct timespec *_Nonnull __ts);

#endif
