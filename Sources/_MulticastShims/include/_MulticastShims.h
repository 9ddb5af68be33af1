// Atomic operations on one machine word, for the counters that Multicast's passes read or bump without the lock.
//
// Swift's own `Synchronization.Atomic` needs iOS 18 / macOS 15, and Multicast supports iOS 13 / macOS 10.15,
// so the operations it needs come from the C compiler's builtins, which every toolchain Swift uses
// (clang on Apple platforms, Linux and Windows) provides. The thread sanitizer understands them.
#ifndef MULTICAST_SHIMS_H
#define MULTICAST_SHIMS_H

#include <stdint.h>

/// Loads `*word` with acquire ordering.
static inline intptr_t _multicast_load_acquire(const intptr_t *_Nonnull word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/// Adds `value` to `*word` with release ordering.
static inline void _multicast_add_release(intptr_t *_Nonnull word, intptr_t value) {
    __atomic_fetch_add(word, value, __ATOMIC_RELEASE);
}

/// Stores `value` into `*word` with release ordering.
static inline void _multicast_store_release(intptr_t *_Nonnull word, intptr_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

#endif
