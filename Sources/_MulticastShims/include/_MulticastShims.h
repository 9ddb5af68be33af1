// Atomic operations for the words that Multicast's passes read or change without the lock: a slot's key, which
// has 64 bits on every platform, a ticket's reader count, the gate and a storage's slot count, machine words. Each is
// always inlined, so that an unoptimized build of the caller makes the atomic operation, not a call.
//
// Swift's own `Synchronization.Atomic` needs iOS 18 / macOS 15, and Multicast supports iOS 15 / macOS 12,
// so the operations it needs come from the C compiler's builtins, which every toolchain Swift uses
// (clang on Apple platforms, Linux and Windows) provides. The thread sanitizer understands them.
#ifndef MULTICAST_SHIMS_H
#define MULTICAST_SHIMS_H

#include <stdint.h>

/// Loads the 64-bit `*word` with no ordering: a plain load on x86-64, arm64 and arm64_32; on 32-bit ARM
/// (32-bit Android and Linux), the compiler's doubleword atomic.
__attribute__((always_inline)) static inline int64_t _multicast_load_relaxed_64(const int64_t *_Nonnull word) {
    return __atomic_load_n(word, __ATOMIC_RELAXED);
}

/// Stores `value` into the 64-bit `*word` with no ordering.
__attribute__((always_inline)) static inline void _multicast_store_relaxed_64(int64_t *_Nonnull word, int64_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELAXED);
}

/// Sets the bits of `mask` in the 64-bit `*word` with no ordering.
__attribute__((always_inline)) static inline void _multicast_fetch_or_relaxed_64(int64_t *_Nonnull word, int64_t mask) {
    __atomic_fetch_or(word, mask, __ATOMIC_RELAXED);
}

/// Loads `*word` with acquire ordering.
__attribute__((always_inline)) static inline intptr_t _multicast_load_acquire(const intptr_t *_Nonnull word) {
    return __atomic_load_n(word, __ATOMIC_ACQUIRE);
}

/// Stores `value` into `*word` with no ordering: a plain store on x86-64 and arm64.
__attribute__((always_inline)) static inline void _multicast_store_relaxed(intptr_t *_Nonnull word, intptr_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELAXED);
}

/// Adds `value` to `*word` with no ordering; returns the value before.
__attribute__((always_inline)) static inline intptr_t _multicast_fetch_add_relaxed(intptr_t *_Nonnull word, intptr_t value) {
    return __atomic_fetch_add(word, value, __ATOMIC_RELAXED);
}

// The gate and a pass's ticket (Sources/_MulticastCore/Gate.swift): a pass counts itself in and checks the gate
// again, a writer closes or moves the gate and checks the count; each side's write comes before its read in one
// total order, so that one of the two sees the other (sequentially consistent ordering).

/// Loads `*word` in the total order of sequentially consistent operations.
__attribute__((always_inline)) static inline intptr_t _multicast_load_seq_cst(const intptr_t *_Nonnull word) {
    return __atomic_load_n(word, __ATOMIC_SEQ_CST);
}

/// Stores `value` into `*word` in the total order of sequentially consistent operations.
__attribute__((always_inline)) static inline void _multicast_store_seq_cst(intptr_t *_Nonnull word, intptr_t value) {
    __atomic_store_n(word, value, __ATOMIC_SEQ_CST);
}

/// Stores `value` into `*word` with release ordering.
__attribute__((always_inline)) static inline void _multicast_store_release(intptr_t *_Nonnull word, intptr_t value) {
    __atomic_store_n(word, value, __ATOMIC_RELEASE);
}

/// Adds `value` to `*word` in the total order of sequentially consistent operations; returns the value before.
__attribute__((always_inline)) static inline intptr_t _multicast_fetch_add_seq_cst(intptr_t *_Nonnull word, intptr_t value) {
    return __atomic_fetch_add(word, value, __ATOMIC_SEQ_CST);
}

/// Clears the bits of `mask` in `*word` with no ordering.
__attribute__((always_inline)) static inline void _multicast_fetch_and_relaxed(intptr_t *_Nonnull word, intptr_t mask) {
    __atomic_fetch_and(word, mask, __ATOMIC_RELAXED);
}

/// Subtracts `value` from `*word` with release ordering; returns the value before.
__attribute__((always_inline)) static inline intptr_t _multicast_fetch_sub_release(intptr_t *_Nonnull word, intptr_t value) {
    return __atomic_fetch_sub(word, value, __ATOMIC_RELEASE);
}

/// Sets the bits of `mask` in `*word` with acquire ordering; returns the value before.
__attribute__((always_inline)) static inline intptr_t _multicast_fetch_or_acquire(intptr_t *_Nonnull word, intptr_t mask) {
    return __atomic_fetch_or(word, mask, __ATOMIC_ACQUIRE);
}

// Diagnostics (Sources/_MulticastCore/Diagnostics.swift). Every call and add reads one word, which is nonzero
// while any multicast, or the process, has diagnostics on; the rest is out of line, in shims.c.

/// How many multicasts have diagnostics of their own, plus one while the process has them: written only through
/// `_multicast_diagnosed_add_relaxed`.
extern intptr_t _multicast_diagnosed;

/// Loads `_multicast_diagnosed` with no ordering: a plain load, which the call path makes once per call. Always
/// inlined, so that an unoptimized build of the caller makes the load, not a call.
__attribute__((always_inline)) static inline intptr_t _multicast_diagnosed_load_relaxed(void) {
    return __atomic_load_n(&_multicast_diagnosed, __ATOMIC_RELAXED);
}

/// Adds `value` to `_multicast_diagnosed` with no ordering.
static inline void _multicast_diagnosed_add_relaxed(intptr_t value) {
    __atomic_fetch_add(&_multicast_diagnosed, value, __ATOMIC_RELAXED);
}

/// A monotonic clock in nanoseconds, from an arbitrary start: `clock_gettime(CLOCK_MONOTONIC)` where POSIX has
/// it, `QueryPerformanceCounter` on Windows. For differences only.
uint64_t _multicast_monotonic_nanoseconds(void);

/// How many diagnostics hooks are running on the calling thread: a thread-local count.
intptr_t _multicast_hooks_running(void);

/// Adds `value` to the calling thread's count of running hooks.
void _multicast_hooks_running_add(intptr_t value);

// The Swift runtime's entry points for an object's unowned reference count and the start of its deinit, through
// which an owned registration holds its owner (Sources/_MulticastCore/OwnerPin.swift). Every Swift program links
// the runtime that exports them; Multicast checks once that they behave as a weak reference says before it
// relies on them.

/// Whether the native Swift object's deinit has started: one load of its reference counts.
_Bool swift_isDeallocating(void *_Nonnull object);

/// Takes a strong count on the native Swift object, unless its deinit has started; returns the object if it did,
/// else null. (A runtime that answered otherwise, with a `bool`, fails the check that the answer is the object.)
void *_Nullable swift_tryRetain(void *_Nonnull object);

/// Adds one to the native Swift object's unowned reference count, which keeps its memory, not the object, alive;
/// returns `object`.
void *_Nonnull swift_unownedRetain(void *_Nonnull object);

/// Takes one from the native Swift object's unowned reference count; the memory of an object whose deinit has run
/// is freed with the last one.
void swift_unownedRelease(void *_Nonnull object);

// The same, for an object known by its address, as a slot keeps its owner's: always inlined, so that an unoptimized
// build of the caller calls the runtime, and nothing between.

/// Whether the deinit of the native object at `address` has started.
__attribute__((always_inline, swift_attr("unsafe"))) static inline _Bool _multicast_is_deallocating(uintptr_t address) {
    return swift_isDeallocating((void *)address);
}

/// Takes a strong count on the native object at `address` unless its deinit has started; returns whether it did.
__attribute__((always_inline, swift_attr("unsafe"))) static inline _Bool _multicast_try_retain(uintptr_t address) {
    return swift_tryRetain((void *)address) == (void *)address;
}

/// Adds one to the unowned count of the native object at `address`.
__attribute__((always_inline, swift_attr("unsafe"))) static inline void _multicast_unowned_retain(uintptr_t address) {
    swift_unownedRetain((void *)address);
}

/// Takes one from the unowned count of the native object at `address`.
__attribute__((always_inline, swift_attr("unsafe"))) static inline void _multicast_unowned_release(uintptr_t address) {
    swift_unownedRelease((void *)address);
}

#endif
