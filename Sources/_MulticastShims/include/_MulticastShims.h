// Atomic loads and stores of one machine word, for Multicast's lock-free "has anything been removed?" check.
//
// Swift's own `Synchronization.Atomic` needs iOS 18 / macOS 15, and Multicast supports iOS 13 / macOS 10.15,
// so the two operations it needs come from the C compiler's builtins, which every toolchain Swift uses
// (clang on Apple platforms, Linux and Windows) provides. The thread sanitizer understands them.
#ifndef MULTICAST_SHIMS_H
#define MULTICAST_SHIMS_H

#include <stdint.h>

/// Loads `*word` with acquire ordering.
static inline intptr_t _multicast_load_acquire(const intptr_t *_Nonnull word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/// Stores `value` into `*word` with release ordering.
static inline void _multicast_store_release(intptr_t *_Nonnull word, intptr_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

#endif
