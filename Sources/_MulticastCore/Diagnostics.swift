import _MulticastShims

// What a multicast keeps for its diagnostics, and the switch that tells every call and add whether to look.
// The public side, with the settings, the traces and what is done with them, is Multicast's
// MulticastDelegate+Diagnostics.swift.

/// Where a delegate was added: the `#fileID` and `#line` of the `add` call that registered it.
@usableFromInline
@frozen
package struct _Site: Sendable {
    @usableFromInline
    package let fileID: StaticString
    @usableFromInline
    package let line: UInt

    @inlinable
    package init(fileID: StaticString, line: UInt) {
        self.fileID = fileID
        self.line = line
    }
}

/// The switch that keeps diagnostics free while they are off, the process-wide settings, and the clock and
/// thread state that traces use.
///
/// Every call and add reads ``areOnAnywhere`` once: one relaxed load of a word of the shims that is nonzero
/// while any multicast, or the process, has diagnostics on. Only then do they take the out-of-line paths that
/// look for the settings in effect. The word counts: each multicast whose settings are set counts one, and the
/// process-wide settings one; each change of settings counts its own transition under the lock that guards
/// them, so the word is zero exactly when no settings are set. A thread that sets settings sees its own calls
/// traced at once; another thread sees them from its next call that follows, in memory order, the change.
@usableFromInline
package enum _Diagnostics {
    /// Whether any multicast, or the process, has diagnostics on.
    @inlinable
    @inline(always)
    package static var areOnAnywhere: Bool {
        _multicast_diagnosed_load_relaxed() != 0
    }

    /// Counts settings that were set (`true`) or cleared (`false`).
    static func count(on: Bool) {
        _multicast_diagnosed_add_relaxed(on ? 1 : -1)
    }

    /// The settings for every multicast without its own, as Multicast boxes them; nil when off.
    package static var processWide: AnyObject? {
        get { _ProcessWideSettings.shared.settings }
        set {
            let old = _ProcessWideSettings.shared.exchange(newValue)
            if (old == nil) != (newValue == nil) { count(on: newValue != nil) }
            extendLifetime(old)  // released here, with no lock held
        }
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

/// The process-wide settings, under a lock of their own, which is never held while the core's is taken.
///
/// Unchecked: `value` is read and written only with `lock` held.
final class _ProcessWideSettings: @unchecked Sendable {
    static let shared = _ProcessWideSettings()

    private let lock = _Lock()
    private var value: AnyObject?

    var settings: AnyObject? {
        lock.lock()
        let settings = value
        lock.unlock()
        return settings
    }

    /// Sets the settings; returns the old ones, for the caller to release after unlocking.
    func exchange(_ new: AnyObject?) -> AnyObject? {
        lock.lock()
        let old = value
        value = new
        lock.unlock()
        return old
    }
}

/// What a multicast keeps for diagnostics: its label, its settings, and where its delegates were added. Made
/// only for a multicast given a label, settings or a site; guarded by the core's lock.
///
/// `sites` is in registration order: a site is recorded under the lock of the add that made the registration,
/// which is the newest. Entries of registrations that ended are dropped when they are half the list.
final class _Notes {
    let label: String?
    var settings: AnyObject?
    var sites: [(registration: Int64, site: _Site)] = []

    init(label: String?) {
        self.label = label
    }

    /// The site of `registration`, if one was recorded.
    func site(of registration: Int64) -> _Site? {
        var (low, high) = (0, sites.count)
        while low < high {
            let middle = (low + high) / 2
            if sites[middle].registration < registration { low = middle + 1 } else { high = middle }
        }
        return low < sites.count && sites[low].registration == registration ? sites[low].site : nil
    }

    /// Keeps the sites of the registrations of `slots`, the current storage, which holds them in registration
    /// order.
    func dropEndedSites(keepingThoseOf slots: _Slots) {
        var kept: [(registration: Int64, site: _Site)] = []
        var next = 0
        for position in unsafe 0..<slots.count {
            let key = unsafe slots.key(at: position)
            guard key.isCallable else { continue }
            while next < sites.count && sites[next].registration < key.registration { next += 1 }
            if next < sites.count && sites[next].registration == key.registration { kept.append(sites[next]) }
        }
        sites = kept
    }
}

extension _Core {
    /// The notes, made if there are none yet. Call it with the lock held.
    func makeNotes() -> _Notes {
        if let notes { return notes }
        let notes = _Notes(label: nil)
        self.notes = notes
        return notes
    }

    /// ``add(bitsOf:object:owner:holding:)``, and, if the object was added, a record that the registration was
    /// made at `site`, under the lock of the add. Out of line: only diagnostics use it. (The loop is the hot
    /// add's, which records nothing, so that it gains nothing.)
    func add(
        bitsOf value: UnsafeRawPointer, object: Unmanaged<AnyObject>, owner: Unmanaged<AnyObject>, holding: _Holding,
        site: _Site
    ) -> _Addition {
        var mayGrow = false
        while true {
            let outcome = change { registry, garbage in
                let outcome = unsafe registry.add(
                    bitsOf: value, object: object, owner: owner, holding: holding, mayGrow: mayGrow, &garbage)
                switch outcome {
                case .added, .replaced: recordSiteOfNewestRegistration(site)
                default: break
                }
                return outcome
            }
            if let addition = _Addition(outcome) { return addition }
            reclaimDeadDelegates()  // as the hot add does, before it grows a full storage
            mayGrow = true
        }
    }

    /// ``add(bitsOf:object:owner:holding:)`` while diagnostics are on somewhere: records that the registration
    /// was made at `fileID` and `line` if they apply to this multicast. Out of line, and not generic, so that the
    /// hot add only gains the branch that leads here. `owner` is `object` but for an owned registration.
    @usableFromInline
    package func addRecordingSite(
        bitsOf value: UnsafeRawPointer, object: Unmanaged<AnyObject>, owner: Unmanaged<AnyObject>, holding: _Holding,
        fileID: StaticString, line: UInt
    ) -> _Addition {
        guard diagnosticsInEffect != nil else {
            return unsafe add(bitsOf: value, object: object, owner: owner, holding: holding)
        }
        return unsafe add(
            bitsOf: value, object: object, owner: owner, holding: holding, site: _Site(fileID: fileID, line: line))
    }

    /// Records that the newest registration was made at `site`. Call it with the lock held.
    func recordSiteOfNewestRegistration(_ site: _Site) {
        let notes = makeNotes()
        unsafe notes.sites.append((registration: registry.pointee.newestRegistration, site: site))
        let slots = unsafe registry.pointee.slots
        if unsafe notes.sites.count >= 16 && notes.sites.count >= 2 * (slots.count - registry.pointee.vacancies) {
            unsafe notes.dropEndedSites(keepingThoseOf: slots)
        }
    }

    /// The multicast's label, if it was given one.
    package var label: String? {
        withLock { _ in notes?.label }
    }

    /// The multicast's own diagnostics settings, as Multicast boxes them; nil when it has none.
    package var diagnostics: AnyObject? {
        get { withLock { _ in notes?.settings } }
        set {
            let old: AnyObject? = withLock { _ in
                let old = notes?.settings
                if newValue != nil || notes != nil { makeNotes().settings = newValue }
                return old
            }
            if (old == nil) != (newValue == nil) { _Diagnostics.count(on: newValue != nil) }
            extendLifetime(old)  // released here, with no lock held
        }
    }

    /// The settings that apply to this multicast: its own, or else the process's. What an add asks, while
    /// diagnostics are on somewhere, to know whether to record its site.
    @usableFromInline
    package var diagnosticsInEffect: AnyObject? {
        diagnostics ?? _Diagnostics.processWide
    }

    /// The settings that trace a call made now: those in effect, unless the calling thread is running a
    /// diagnostics handler, whose calls are not traced. What a call asks while diagnostics are on somewhere.
    @usableFromInline
    package var diagnosticsForCall: AnyObject? {
        _Diagnostics.isRunningHook ? nil : diagnosticsInEffect
    }

    /// Where each of `registrations` was added, as far as it was recorded.
    package func sites(of registrations: [Int64]) -> [_Site?] {
        withLock { _ in
            guard let notes else { return Array(repeating: nil, count: registrations.count) }
            return registrations.map { notes.site(of: $0) }
        }
    }
}

extension _Slot {
    /// The number of the registration that the slot holds, or held.
    package var registration: Int64 {
        unsafe key.registration
    }
}
