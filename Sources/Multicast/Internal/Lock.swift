// The only platform-specific code in Multicast: a mutex, and a buffer that keeps a value next to it.

import _MulticastShims

#if canImport(Darwin)
import Darwin

@usableFromInline
typealias _LockPrimitive = os_unfair_lock
#elseif canImport(Glibc)
import Glibc

@usableFromInline
typealias _LockPrimitive = pthread_mutex_t
#elseif canImport(Musl)
import Musl

@usableFromInline
typealias _LockPrimitive = pthread_mutex_t
#elseif canImport(Android)
import Android

@usableFromInline
typealias _LockPrimitive = pthread_mutex_t
#elseif canImport(WinSDK)
import WinSDK

@usableFromInline
typealias _LockPrimitive = SRWLOCK
#else
#error("Multicast needs a mutex on this platform: add it to Internal/Lock.swift.")
#endif

@inlinable
func _lockInitialize(_ lock: UnsafeMutablePointer<_LockPrimitive>) {
    #if canImport(Darwin)
    lock.initialize(to: os_unfair_lock())
    #elseif canImport(WinSDK)
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

@inlinable
func _lockDestroy(_ lock: UnsafeMutablePointer<_LockPrimitive>) {
    #if canImport(Darwin) || canImport(WinSDK)
    lock.deinitialize(count: 1)
    #else
    let error = pthread_mutex_destroy(lock)
    precondition(error == 0, "pthread_mutex_destroy failed with error \(error)")
    #endif
}

@inlinable
func _lockAcquire(_ lock: UnsafeMutablePointer<_LockPrimitive>) {
    #if canImport(Darwin)
    os_unfair_lock_lock(lock)
    #elseif canImport(WinSDK)
    AcquireSRWLockExclusive(lock)
    #else
    let error = pthread_mutex_lock(lock)
    precondition(error == 0, "pthread_mutex_lock failed with error \(error)")
    #endif
}

@inlinable
func _lockRelease(_ lock: UnsafeMutablePointer<_LockPrimitive>) {
    #if canImport(Darwin)
    os_unfair_lock_unlock(lock)
    #elseif canImport(WinSDK)
    ReleaseSRWLockExclusive(lock)
    #else
    let error = pthread_mutex_unlock(lock)
    precondition(error == 0, "pthread_mutex_unlock failed with error \(error)")
    #endif
}

/// The tail of a ``_Locked`` buffer: its mutex, and two counters.
@usableFromInline
struct _LockedTail {
    @usableFromInline
    var mutex: _LockPrimitive

    @usableFromInline
    var version: Int

    @usableFromInline
    var departures: Int
}

/// A value and the mutex that guards it, in one allocation, with two counters that are read without the
/// lock: a version number that the owner advances under the lock, and a count of departures that anyone may
/// bump at any time.
///
/// The mutex and the counters live in the buffer's tail, at addresses that never change (a requirement of
/// every primitive above) and apart from the value, which is reached only through ``withLock(_:)``. The
/// counters are only read and written with atomic operations.
@usableFromInline
final class _Locked<Value>: ManagedBuffer<Value, _LockedTail> {
    @usableFromInline
    static func make(_ value: (_ version: UnsafeMutablePointer<Int>, _ departures: UnsafeMutablePointer<Int>) -> Value)
        -> _Locked<Value>
    {
        let buffer = unsafeDowncast(
            Self.create(minimumCapacity: 1) { buffer in
                buffer.withUnsafeMutablePointerToElements { tail in
                    _lockInitialize(tail.pointer(to: \.mutex)!)
                    tail.pointer(to: \.version)!.initialize(to: 0)
                    tail.pointer(to: \.departures)!.initialize(to: 0)
                    return value(tail.pointer(to: \.version)!, tail.pointer(to: \.departures)!)
                }
            },
            to: _Locked<Value>.self
        )
        return buffer
    }

    /// Runs `body` with exclusive access to the value. `body` must not call out to user code.
    @inlinable
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { value, tail in
            let mutex = tail.pointer(to: \.mutex)!
            _lockAcquire(mutex)
            defer { _lockRelease(mutex) }
            return try body(&value.pointee)
        }
    }

    /// Where the version number is; read it with ``_loadCounter(_:)``.
    @inlinable
    var version: UnsafeMutablePointer<Int> {
        withUnsafeMutablePointerToElements { $0.pointer(to: \.version)! }
    }

    /// Where the departure count is; bump it with ``_depart(_:)``.
    @inlinable
    var departures: UnsafeMutablePointer<Int> {
        withUnsafeMutablePointerToElements { $0.pointer(to: \.departures)! }
    }

    /// Changes the version number. Call it with the lock held.
    @usableFromInline
    func advanceVersion() {
        _multicast_store_release(version, _multicast_load_acquire(version) &+ 1)
    }

    deinit {
        withUnsafeMutablePointerToElements { tail in
            _lockDestroy(tail.pointer(to: \.mutex)!)
        }
    }
}

/// Reads one of a ``_Locked`` buffer's counters, with or without its lock.
@inlinable
func _loadCounter(_ counter: UnsafeMutablePointer<Int>) -> Int {
    _multicast_load_acquire(counter)
}

/// Bumps a ``_Locked`` buffer's departure count, without its lock.
@inlinable
func _depart(_ departures: UnsafeMutablePointer<Int>) {
    _multicast_add_release(departures, 1)
}
