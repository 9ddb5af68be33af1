// What the Darwin branches of Multicast and MulticastChecks use from Apple's C headers, declared here so that
// those branches can be type-checked for Apple triples on a machine without Apple's SDK
// (Scripts/check-apple-platforms.sh). Each group names the header it follows; the types, the nullability and
// the availability are those of the header, so that the Swift importer gives the code what it would get from
// the SDK. Layouts are given where Swift sees them (a struct's size is part of its type), with the header's
// sizes for 64- and 32-bit pointers.
//
// Add a declaration here only when code in a Darwin branch uses it, and only as the named header declares it:
// a declaration that is more lenient than Apple's would let through code that Xcode rejects.
#ifndef MULTICAST_DARWIN_STAND_IN_H
#define MULTICAST_DARWIN_STAND_IN_H

#include <stdint.h>

#define STAND_IN_AVAILABLE_SIERRA                                                                               \
    __attribute__((availability(macos, introduced = 10.12), availability(ios, introduced = 10.0),             \
                   availability(tvos, introduced = 10.0), availability(watchos, introduced = 3.0)))

#pragma clang assume_nonnull begin

// <os/lock.h>: the unfair lock, a 32-bit word that is zero when unlocked, from macOS 10.12, iOS 10,
// tvOS 10, watchOS 3. Both functions take a lock that must not be null.
typedef struct os_unfair_lock_s {
    uint32_t _os_unfair_lock_opaque;
} os_unfair_lock, *os_unfair_lock_t;

STAND_IN_AVAILABLE_SIERRA void os_unfair_lock_lock(os_unfair_lock_t lock);
STAND_IN_AVAILABLE_SIERRA void os_unfair_lock_unlock(os_unfair_lock_t lock);

// <sys/_pthread/_pthread_types.h> and <pthread/pthread.h>: opaque structs that begin with a signature word;
// `pthread_t` is a pointer to one. The sizes are those of __LP64__ and of 32-bit targets (armv7k, arm64_32).
#if defined(__LP64__)
#define STAND_IN_PTHREAD_SIZE 8176
#define STAND_IN_PTHREAD_ATTR_SIZE 56
#define STAND_IN_PTHREAD_MUTEX_SIZE 56
#else
#define STAND_IN_PTHREAD_SIZE 4088
#define STAND_IN_PTHREAD_ATTR_SIZE 36
#define STAND_IN_PTHREAD_MUTEX_SIZE 40
#endif
#define STAND_IN_PTHREAD_MUTEXATTR_SIZE 8

struct _opaque_pthread_t {
    long __sig;
    void *_Nullable __cleanup_stack;
    char __opaque[STAND_IN_PTHREAD_SIZE];
};
typedef struct _opaque_pthread_t *pthread_t;

typedef struct _opaque_pthread_attr_t {
    long __sig;
    char __opaque[STAND_IN_PTHREAD_ATTR_SIZE];
} pthread_attr_t;

typedef struct _opaque_pthread_mutex_t {
    long __sig;
    char __opaque[STAND_IN_PTHREAD_MUTEX_SIZE];
} pthread_mutex_t;

typedef struct _opaque_pthread_mutexattr_t {
    long __sig;
    char __opaque[STAND_IN_PTHREAD_MUTEXATTR_SIZE];
} pthread_mutexattr_t;

// The header's declaration for Swift (`_PTHREAD_SWIFT_IMPORTER_NULLABILITY_COMPAT` off): the handle is filled
// through a pointer to a nullable `pthread_t`, and the start routine takes and returns a nullable pointer.
int pthread_create(pthread_t _Nullable *_Nonnull thread, const pthread_attr_t *_Nullable attributes,
                   void *_Nullable (*_Nonnull start)(void *_Nullable), void *_Nullable argument);
int pthread_detach(pthread_t thread);

int pthread_mutex_init(pthread_mutex_t *mutex, const pthread_mutexattr_t *_Nullable attributes);
int pthread_mutex_destroy(pthread_mutex_t *mutex);
int pthread_mutex_lock(pthread_mutex_t *mutex);
int pthread_mutex_unlock(pthread_mutex_t *mutex);

// <time.h> and <sys/_types/_timespec.h>: the clocks are the enumerators of an anonymous enum, and each
// `CLOCK_...` name is a macro that stands for its enumerator, as Apple's header writes them.
struct timespec {
    long tv_sec;
    long tv_nsec;
};

typedef enum {
    _CLOCK_REALTIME STAND_IN_AVAILABLE_SIERRA = 0,
#define CLOCK_REALTIME _CLOCK_REALTIME
    _CLOCK_MONOTONIC STAND_IN_AVAILABLE_SIERRA = 6,
#define CLOCK_MONOTONIC _CLOCK_MONOTONIC
    _CLOCK_MONOTONIC_RAW STAND_IN_AVAILABLE_SIERRA = 4,
#define CLOCK_MONOTONIC_RAW _CLOCK_MONOTONIC_RAW
    _CLOCK_UPTIME_RAW STAND_IN_AVAILABLE_SIERRA = 8,
#define CLOCK_UPTIME_RAW _CLOCK_UPTIME_RAW
} clockid_t;

STAND_IN_AVAILABLE_SIERRA int clock_gettime(clockid_t clock, struct timespec *time);

// <unistd.h> and <stdlib.h>.
typedef uint32_t useconds_t;
int usleep(useconds_t microseconds);
char *_Nullable getenv(const char *name);
void exit(int status) __attribute__((noreturn));

#pragma clang assume_nonnull end

#endif
