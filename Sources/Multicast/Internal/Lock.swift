// The only platform-specific code in Multicast: a mutex, and a buffer that keeps a value next to it.
//
// One POSIX branch serves Linux, Apple platforms and Android alike (`pthread_mutex_t`, built and tested on Linux
// in CI); only the Windows branch, a handful of SRWLOCK calls, is compiled nowhere here.

import _MulticastShims

#if canImport(WinSDK)
import WinSDK

@usableFromInline
typealias _LockPrimitive = SRWLOCK
#else
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
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

@usableFromInline
func _lockInitialize(_ lock: UnsafeMutablePointer<_LockPrimitive>) {
    #if canImport(WinSDK)
    InitializeSRWLock(lock)
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

@usableFromInline
func _lockDestroy(_ lock: UnsafeMutablePointer<_LockPrimitive>) {
    #if canImport(WinSDK)
    lock.deinitialize(count: 1)
    #else
    let error = pthread_mutex_destroy(lock)
    precondition(error == 0, "pthread_mutex_destroy failed with error \(error)")
    #endif
}

@inlinable
func _lockAcquire(_ lock: UnsafeMutablePointer<_LockPrimitive>) {
    #if canImport(WinSDK)
    AcquireSRWLockExclusive(lock)
    #else
    // The lock is held for a few hundred nanoseconds at most: spinning that long costs less than sleeping
    // and being woken, which a thread that calls while another adds and removes would otherwise do often.
    var spins = 0
    while pthread_mutex_trylock(lock) != 0 {
        guard spins < 256 else {
            let error = pthread_mutex_lock(lock)
            precondition(error == 0, "pthread_mutex_lock failed with error \(error)")
            return
        }
        _multicast_spin_hint()
        spins += 1
    }
    #endif
}

@inlinable
func _lockRelease(_ lock: UnsafeMutablePointer<_LockPrimitive>) {
    #if canImport(WinSDK)
    ReleaseSRWLockExclusive(lock)
    #else
    let error = pthread_mutex_unlock(lock)
    precondition(error == 0, "pthread_mutex_unlock failed with error \(error)")
    #endif
}

/// A value and the mutex that guards it, in one allocation.
///
/// The mutex lives in the buffer's tail, at an address that never changes (a requirement of every primitive
/// above), apart from the value, which is reached only through ``withLock(_:)``.
@usableFromInline
final class _Locked<Value>: ManagedBuffer<Value, _LockPrimitive> {
    @usableFromInline
    static func make(_ value: () -> Value) -> _Locked<Value> {
        let buffer = Self.create(minimumCapacity: 1) { buffer in
            buffer.withUnsafeMutablePointerToElements { _lockInitialize($0) }
            return value()
        }
        return unsafeDowncast(buffer, to: _Locked<Value>.self)
    }

    /// Runs `body` with exclusive access to the value. `body` must not call out to user code.
    @inlinable
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { value, mutex in
            _lockAcquire(mutex)
            defer { _lockRelease(mutex) }
            return try body(&value.pointee)
        }
    }

    deinit {
        withUnsafeMutablePointerToElements { _lockDestroy($0) }
    }
}
