// What Multicast's lock uses from glibc's <pthread.h> (Sources/Multicast/Internal/Lock.swift, the branch for
// Linux and the other POSIX systems), declared as glibc declares it for a 32-bit target such as armv7 or i686
// Linux, so that Scripts/check-32-bit.sh compiles that branch at 32-bit word size. The sizes are those of
// glibc's <bits/pthreadtypes-arch.h> for 32-bit targets; the pointers carry no nullability, as in glibc, and
// the functions the same `nonnull` attributes.
//
// Add a declaration here only when the library's Linux branch uses it.
#ifndef MULTICAST_GLIBC_32_STAND_IN_H
#define MULTICAST_GLIBC_32_STAND_IN_H

#define STAND_IN_SIZEOF_PTHREAD_MUTEX_T 24
#define STAND_IN_SIZEOF_PTHREAD_MUTEXATTR_T 4

typedef union {
    char __size[STAND_IN_SIZEOF_PTHREAD_MUTEX_T];
    long int __align;
} pthread_mutex_t;

typedef union {
    char __size[STAND_IN_SIZEOF_PTHREAD_MUTEXATTR_T];
    int __align;
} pthread_mutexattr_t;

enum {
    PTHREAD_MUTEX_TIMED_NP,
    PTHREAD_MUTEX_RECURSIVE_NP,
    PTHREAD_MUTEX_ERRORCHECK_NP,
    PTHREAD_MUTEX_ADAPTIVE_NP,
    PTHREAD_MUTEX_NORMAL = PTHREAD_MUTEX_TIMED_NP,
    PTHREAD_MUTEX_RECURSIVE = PTHREAD_MUTEX_RECURSIVE_NP,
    PTHREAD_MUTEX_ERRORCHECK = PTHREAD_MUTEX_ERRORCHECK_NP,
    PTHREAD_MUTEX_DEFAULT = PTHREAD_MUTEX_NORMAL
};

extern int pthread_mutexattr_init(pthread_mutexattr_t *attributes) __attribute__((__nonnull__(1)));
extern int pthread_mutexattr_destroy(pthread_mutexattr_t *attributes) __attribute__((__nonnull__(1)));
extern int pthread_mutexattr_settype(pthread_mutexattr_t *attributes, int kind) __attribute__((__nonnull__(1)));

extern int pthread_mutex_init(pthread_mutex_t *mutex, const pthread_mutexattr_t *attributes)
    __attribute__((__nonnull__(1)));
extern int pthread_mutex_destroy(pthread_mutex_t *mutex) __attribute__((__nonnull__(1)));
extern int pthread_mutex_trylock(pthread_mutex_t *mutex) __attribute__((__nonnull__(1)));
extern int pthread_mutex_lock(pthread_mutex_t *mutex) __attribute__((__nonnull__(1)));
extern int pthread_mutex_unlock(pthread_mutex_t *mutex) __attribute__((__nonnull__(1)));

#endif
