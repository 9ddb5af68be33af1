// The platform-specific code of Multicast: a mutex, and the value it guards.
//
// Apple platforms use `os_unfair_lock`, the lock Apple recommends for short critical sections: a waiter sleeps
// in the kernel and donates its priority to the owner, and locking it twice on one thread stops the program
// (<os/lock.h>). Linux, Android and the other POSIX systems use `pthread_mutex_t`, built and tested on Linux in
// CI; Windows uses SRWLOCK. The Apple and Windows branches are written to their documented APIs and compiled
// nowhere here.

import _MulticastShims

#if canImport(WinSDK)
import WinSDK

@usableFromInline
typealias _LockPrimitive = SRWLOCK
#elseif canImport(Darwin)
import Darwin

@usableFromInline
typealias _LockPrimitive = os_unfair_lock
#else
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#else
#error("Multicast needs a mutex on this platform: add it to Internal/Lock.swift.")
#endif

@usableFromInline
typealias _LockPrimitive = pthread_mutex_t
#endif

func _lockInitialize(_ lock: UnsafeMutablePointer<_LockPrimitive>) {
    #if canImport(WinSDK)
    InitializeSRWLock(lock)
    #elseif canImport(Darwin)
    lock.initialize(to: os_unfair_lock())
    #else
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    #if DEBUG
    // Catches a lock taken twice on one thread, which would otherwise hang; no cost in release builds.
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
    #endif
    let error = pthread_mutex_init(lock, &attributes)
    pthread_mutexattr_destroy(&attributes)
    precondition(error == 0, "pthread_mutex_init failed with error \(error)")
    #endif
}

func _lockDestroy(_ lock: UnsafeMutablePointer<_LockPrimitive>) {
    #if canImport(WinSDK) || canImport(Darwin)
    lock.deinitialize(count: 1)
    #else
    let error = pthread_mutex_destroy(lock)
    precondition(error == 0, "pthread_mutex_destroy failed with error \(error)")
    #endif
}

@inlinable
@inline(always)
func _lockAcquire(_ lock: UnsafeMutablePointer<_LockPrimitive>) {
    #if canImport(WinSDK)
    AcquireSRWLockExclusive(lock)
    #elseif canImport(Darwin)
    os_unfair_lock_lock(lock)
    #else
    // The lock is held for a few hundred nanoseconds at most: spinning that long costs less than sleeping
    // and being woken, which a thread that calls while another adds and removes would otherwise do often.
    if pthread_mutex_trylock(lock) != 0 { _lockAcquireContended(lock) }
    #endif
}

#if !canImport(WinSDK) && !canImport(Darwin)
@usableFromInline
@inline(never)
func _lockAcquireContended(_ lock: UnsafeMutablePointer<_LockPrimitive>) {
    for _ in 0..<256 {
        _multicast_spin_hint()
        if pthread_mutex_trylock(lock) == 0 { return }
    }
    let error = pthread_mutex_lock(lock)
    precondition(error == 0, "pthread_mutex_lock failed with error \(error)")
}
#endif

@inlinable
@inline(always)
func _lockRelease(_ lock: UnsafeMutablePointer<_LockPrimitive>) {
    #if canImport(WinSDK)
    ReleaseSRWLockExclusive(lock)
    #elseif canImport(Darwin)
    os_unfair_lock_unlock(lock)
    #else
    let error = pthread_mutex_unlock(lock)
    if error != 0 { _lockFailed("pthread_mutex_unlock", error) }
    #endif
}

/// Stops the program: a lock operation failed, which only a corrupted or misused mutex can make happen. Out of
/// line, so that the message is not built into every caller of the inlined lock.
@usableFromInline
@inline(never)
func _lockFailed(_ operation: StaticString, _ error: Int32) -> Never {
    fatalError("\(operation) failed with error \(error)")
}

/// A value and the mutex that guards it.
///
/// Both live in memory of their own, at addresses that never change (a requirement of every primitive above),
/// which the object keeps in constants: an unoptimized build reaches them as cheaply as an optimized one,
/// where a `ManagedBuffer`'s accessors would be generic calls on every lock. The value is reached only through
/// ``withLock(_:)``.
@usableFromInline
final class _Locked<Value> {
    @usableFromInline
    let mutex: UnsafeMutablePointer<_LockPrimitive>

    @usableFromInline
    let value: UnsafeMutablePointer<Value>

    init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        _lockInitialize(mutex)
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
    }

    /// Runs `body` with exclusive access to the value. `body` must not call out to user code.
    @inlinable
    @inline(always)
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        _lockAcquire(mutex)
        let result = body(&value.pointee)
        _lockRelease(mutex)
        return result
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        _lockDestroy(mutex)
        mutex.deallocate()
    }
}
