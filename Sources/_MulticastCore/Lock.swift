// The platform-specific code of Multicast, a mutex: on Apple platforms `os_unfair_lock`, which Apple recommends for
// short critical sections (a waiter donates its priority to the owner; locking it twice on one thread stops the
// program); SRWLOCK on Windows; `pthread_mutex_t` on Linux, Android, wasip1-threads and the other POSIX systems.
// Where the Swift runtime has one thread (wasip1), no other thread can take the lock, and it does nothing.

import _MulticastShims

#if canImport(WinSDK)
import WinSDK

@usableFromInline
typealias _LockPrimitive = SRWLOCK
#elseif canImport(Darwin)
import Darwin

@usableFromInline
typealias _LockPrimitive = os_unfair_lock
#elseif !_runtime(_multithreaded)
@usableFromInline
typealias _LockPrimitive = UInt8  // a byte that nothing reads
#else
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(wasi_pthread)
import wasi_pthread
#else
#error("Multicast needs a mutex on this platform: add it to Sources/_MulticastCore/Lock.swift.")
#endif

@usableFromInline
typealias _LockPrimitive = pthread_mutex_t
#endif

/// A mutex, and nothing else.
///
/// The primitive lives in memory of its own, at an address that never changes (a requirement of every
/// primitive above), which the lock keeps in a constant: an unoptimized build reaches it as cheaply as an
/// optimized one. Noncopyable, so that it is destroyed once, by its owner.
@safe  // the primitive's memory is its own, freed once, by deinit
@usableFromInline
package struct _Lock: ~Copyable {
    @usableFromInline
    let primitive: UnsafeMutablePointer<_LockPrimitive>

    package init() {
        unsafe primitive = .allocate(capacity: 1)
        #if canImport(WinSDK)
        unsafe InitializeSRWLock(primitive)
        #elseif canImport(Darwin)
        unsafe primitive.initialize(to: os_unfair_lock())
        #elseif !_runtime(_multithreaded)
        unsafe primitive.initialize(to: 0)
        #else
        var attributes = pthread_mutexattr_t()
        unsafe pthread_mutexattr_init(&attributes)
        #if DEBUG
        // Catches a lock taken twice on one thread, which would otherwise hang; no cost in release builds.
        unsafe pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
        #endif
        let error = unsafe pthread_mutex_init(primitive, &attributes)
        unsafe pthread_mutexattr_destroy(&attributes)
        if error != 0 { _lockFailed("pthread_mutex_init", error) }
        #endif
    }

    deinit {
        #if canImport(WinSDK) || canImport(Darwin) || !_runtime(_multithreaded)
        unsafe primitive.deinitialize(count: 1)
        #else
        let error = unsafe pthread_mutex_destroy(primitive)
        if error != 0 { _lockFailed("pthread_mutex_destroy", error) }
        #endif
        unsafe primitive.deallocate()
    }

    @inlinable
    @inline(always)
    package func lock() {
        #if canImport(WinSDK)
        unsafe AcquireSRWLockExclusive(primitive)
        #elseif canImport(Darwin)
        unsafe os_unfair_lock_lock(primitive)
        #elseif !_runtime(_multithreaded)
        // One thread: nothing to exclude.
        #else
        let error = unsafe pthread_mutex_lock(primitive)
        if error != 0 { _lockFailed("pthread_mutex_lock", error) }
        #endif
    }

    @inlinable
    @inline(always)
    package func unlock() {
        #if canImport(WinSDK)
        unsafe ReleaseSRWLockExclusive(primitive)
        #elseif canImport(Darwin)
        unsafe os_unfair_lock_unlock(primitive)
        #elseif !_runtime(_multithreaded)
        // One thread: nothing to exclude.
        #else
        let error = unsafe pthread_mutex_unlock(primitive)
        if error != 0 { _lockFailed("pthread_mutex_unlock", error) }
        #endif
    }
}

/// Stops the program: a lock operation failed, which only a corrupted or misused mutex can make happen. Out of
/// line, so that the message is not built into every caller of the inlined lock.
@usableFromInline
@inline(never)
func _lockFailed(_ operation: StaticString, _ error: Int32) -> Never {
    fatalError("\(operation) failed with error \(error)")
}
