import _MulticastShims

/// The switch that keeps diagnostics free while they are off, and the clock and thread state that traces use.
/// Diagnostics keep no other state in the core: their settings and records are Multicast's.
///
/// Every call and add reads ``areOnAnywhere`` once: one relaxed load of a word of the shims that is nonzero
/// while any multicast, or the process, has diagnostics on. Only then do they take the out-of-line paths that
/// look for the settings in effect. The word counts: each multicast whose settings are set counts one, and the
/// process-wide settings one. Each change of settings counts its transition under the lock that guards those
/// settings, in the critical section that makes it, so that two changes of the same settings count in the order
/// they were made: the word is zero exactly when no settings are set. A thread that sets settings sees its own
/// calls traced at once; another thread sees them from its next call that follows, in memory order, the change.
@usableFromInline
package enum _Diagnostics {
    /// Whether any multicast, or the process, has diagnostics on.
    @inlinable
    @inline(always)
    package static var areOnAnywhere: Bool {
        _multicast_diagnosed_load_relaxed() != 0
    }

    /// Counts settings that were set (`true`) or cleared (`false`). Call it with the lock that guards those
    /// settings held, in the critical section that changed them.
    package static func count(on: Bool) {
        _multicast_diagnosed_add_relaxed(on ? 1 : -1)
    }

    /// Nanoseconds of a monotonic clock, from an arbitrary start.
    package static var now: UInt64 {
        _multicast_monotonic_nanoseconds()
    }

    /// Whether the calling thread is running a diagnostics hook: a call made from a hook is not traced, so that
    /// a hook that calls a multicast does not trace itself without end.
    package static var isRunningHook: Bool {
        _multicast_hooks_running() != 0
    }

    /// Runs `hooks`, the user's diagnostics code, marking the thread as running a hook meanwhile.
    package static func runHooks(_ hooks: () -> Void) {
        _multicast_hooks_running_add(1)
        defer { _multicast_hooks_running_add(-1) }
        hooks()
    }
}

/// What a multicast's diagnostics are told of the registrations that passes unregister because they ended with their
/// owners (a weak delegate, or the owner of an owned one, deallocated), whatever the pass: a call, an iteration,
/// `count`, or the search that an add makes before the storage grows. Told under the core's lock, only while
/// diagnostics are on somewhere, so that it costs nothing else; it must not take the core's lock, nor call out to
/// user code.
package protocol _EndedRegistrationsObserver: AnyObject, Sendable {
    /// The registrations numbered `registrations` ended, and were unregistered.
    func registrationsEnded(_ registrations: [Int64])
}

extension _Core {
    /// The numbers of the registrations that have not ended, in increasing order (a delegate that died is
    /// registered until it is reclaimed), and the number of the newest registration made: a registration up to
    /// that number that is not listed has ended for good, since numbers are never reused.
    package func registrations() -> (registered: [Int64], newest: Int64) {
        withLock { registry in
            let slots = registry.slots
            var registered: [Int64] = []
            registered.reserveCapacity(slots.count - registry.vacancies)
            for position in 0..<slots.count {
                let key = slots.key(at: position)
                if key.isCallable { registered.append(key.registration) }
            }
            return (registered, registry.newestRegistration)
        }
    }
}

extension _Slot {
    /// The number of the registration that the slot holds, or held.
    package var registration: Int64 {
        unsafe key.registration
    }
}
