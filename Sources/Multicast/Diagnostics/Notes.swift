// What diagnostics keep: for each multicast, its label, its settings and what was recorded of its registrations;
// for the process, its settings. None of it is in the core, whose lock guards the registry alone: each has a lock
// of its own (see `_Notes` for the order in which they are taken).

import _MulticastCore

/// What was recorded of a registration made while diagnostics applied to its multicast.
struct _Record {
    /// The registration's number.
    var registration: Int64
    /// Where the registration was made.
    var site: RegistrationSite
    /// The delegate's class.
    var delegateType: any AnyObject.Type
    /// The owner's class, for an owned registration.
    var ownerType: (any AnyObject.Type)?
    /// The watch under which the registration was made, if calls were traced then; nil if not. While the
    /// multicast's watch is still this one, every call since the registration was made has been traced.
    var watch: _Watch?
    /// Whether a traced call has given the delegate a turn.
    var called = false
    /// Whether a trace has named the registration as ended before its first call.
    var named = false
    /// Whether the registration is in the multicast's list of those that ended before their first call.
    var listed = false

    /// What the record tells of a registration that ended before its first call.
    var uncalled: UncalledRegistration {
        UncalledRegistration(delegateType: delegateType, ownerType: ownerType, site: site)
    }
}

/// How many times a multicast's calls may have gone untraced: a record made under one watch knows whether its
/// delegate was called only while the watch lasts. The multicast's count goes up with each call that is not
/// traced while diagnostics are on somewhere (settings that trace nothing, none that apply, a call from a
/// handler), and each time its own settings are set to some that trace nothing, or cleared; the process's, each
/// time the process-wide settings are. (Calls made while diagnostics are off everywhere follow such a change.)
/// A watch that began under the multicast's own settings does not depend on the process's: those settings, while
/// they are set, decide every call of the multicast.
struct _Watch {
    var multicastGaps: Int
    /// Nil for a watch that began under the multicast's own settings.
    var processGaps: Int?

    /// Whether the watch still lasts, the multicast's count being `multicastGaps` and the process's `processGaps`.
    func lasts(multicastGaps: Int, processGaps: Int) -> Bool {
        self.multicastGaps == multicastGaps && (self.processGaps ?? processGaps) == processGaps
    }
}

/// Settings, boxed: read under a lock with one retain, where the settings themselves would take one per handler.
final class _DiagnosticsBox: Sendable {
    let settings: MulticastDiagnostics
    /// Whether calls are traced: the settings have somewhere to give a trace (see ``MulticastDiagnostics``).
    let tracesCalls: Bool

    init(_ settings: MulticastDiagnostics) {
        self.settings = settings
        tracesCalls =
            settings.traceHandler != nil || settings.slowTurnHandler != nil || settings.signposts != nil
    }
}

/// What diagnostics keep for one multicast: its label, its settings, and a record of each registration made while
/// settings applied to it. Every multicast holds one, made with it.
///
/// Its lock guards `state` alone. It is never held while the core's lock is taken: an add records its
/// registration after the core's add has returned, and a pruning reads the core's registrations before it takes
/// this lock. While it is held, the process-wide settings' lock may be taken, never the other way round.
///
/// The records are in registration order, which is the order of the adds but for adds on several threads at once,
/// whose records may arrive in another. Records of registrations that ended are pruned by the add that finds them
/// twice as many as those kept by the last pruning (and at least the registrations it found, and 16): amortized
/// O(1) per add. A pruning drops nothing
/// while a reading is under way (a trace, or a listing of the registered delegates): each begins before its pass
/// and ends once it has looked up the records it needs, so that the record of a delegate that its pass saw is
/// there when it looks, even if the delegate was removed meanwhile.
///
/// Unchecked: `state` is read and written only with `lock` held.
final class _Notes: @unchecked Sendable {
    /// The label given to the multicast's `init(label:)`.
    let label: String?

    private let lock = _Lock()
    // Unchecked: the lock already excludes overlapping accesses, which a dynamic check would look for on every
    // access, at the cost of two calls into the runtime.
    @exclusivity(unchecked)
    private var state = State()

    struct State {
        /// The multicast's own settings.
        var settings: _DiagnosticsBox?
        /// In registration order.
        var records: [_Record] = []
        /// The readings under way, which no pruning may overlap.
        var readers = 0
        /// How many records the next pruning waits for.
        var pruneAt = 16
        /// The multicast's count of the times its calls may have gone untraced (see `_Watch`).
        var gaps = 0
        /// The registrations found ended before their first call, oldest first: the latest
        /// ``UncalledRegistration/kept``.
        var uncalled: [UncalledRegistration] = []
    }

    init(label: String?) {
        self.label = label
    }

    deinit {
        if unsafe state.settings != nil { _Diagnostics.count(on: false) }
    }

    private func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return unsafe body(&state)
    }

    /// The multicast's own settings. Setting them counts the change in the switch that calls read, under the
    /// lock, as the change is made (see `_Diagnostics`).
    var settings: _DiagnosticsBox? {
        get { withState { $0.settings } }
        set {
            let old = withState { state in
                let old = state.settings
                state.settings = newValue
                if !(newValue?.tracesCalls ?? false) { state.gaps += 1 }
                if (old == nil) != (newValue == nil) { _Diagnostics.count(on: newValue != nil) }
                return old
            }
            extendLifetime(old)  // released here, with no lock held
        }
    }

    /// The settings that apply to the multicast: its own, or else the process's.
    var settingsInEffect: _DiagnosticsBox? {
        withState { $0.settings ?? _ProcessWideSettings.shared.settings }
    }

    /// The settings that trace a call made now, and a reading of the records begun for it; nil, with no reading
    /// begun, when no settings apply or the calling thread is running a diagnostics handler, whose calls are not
    /// traced.
    ///
    /// A call that is not traced counts as a gap in the multicast's watch (see `_Watch`).
    func startTrace() -> _TraceStart? {
        let isRunningHook = _Diagnostics.isRunningHook
        let settings = withState { state -> _DiagnosticsBox? in
            guard !isRunningHook, let settings = state.settings ?? _ProcessWideSettings.shared.settings,
                settings.tracesCalls
            else {
                state.gaps += 1
                return nil
            }
            state.readers += 1
            return settings
        }
        guard let settings else { return nil }
        return _TraceStart(settings: settings, reading: _NotesReading(begunOn: self))
    }

    func beginReading() {
        withState { $0.readers += 1 }
    }

    /// Ends a reading; returns the records of `registrations`, as far as there are some, marked as called first if
    /// `called`; and, of the registrations `ended`, found ended with their owners, those that ended before their
    /// first call and that no trace has named yet, now marked as named if `named`. Each of those is added to the
    /// multicast's list of them, once.
    func endReading(
        lookingUp registrations: [Int64], called: Bool, ended: [Int64], named: Bool
    ) -> (records: [_Record?], uncalled: [UncalledRegistration]) {
        withState { state in
            state.readers -= 1
            var records: [_Record?] = []
            records.reserveCapacity(registrations.count)
            for registration in registrations {
                guard let position = state.index(of: registration) else {
                    records.append(nil)
                    continue
                }
                if called { state.records[position].called = true }
                records.append(state.records[position])
            }
            guard !ended.isEmpty else { return (records, []) }
            let processGaps = _ProcessWideSettings.shared.gaps
            var uncalled: [UncalledRegistration] = []
            for registration in ended {
                guard let position = state.index(of: registration) else { continue }
                let record = state.records[position]
                guard !record.called, record.watch?.lasts(multicastGaps: state.gaps, processGaps: processGaps) == true
                else { continue }
                if !record.listed {
                    state.records[position].listed = true
                    state.uncalled.append(record.uncalled)
                    if state.uncalled.count > UncalledRegistration.kept { state.uncalled.removeFirst() }
                }
                if named && !record.named {
                    state.records[position].named = true
                    uncalled.append(record.uncalled)
                }
            }
            return (records, uncalled)
        }
    }

    /// The registrations found ended before their first call, oldest first.
    var uncalled: [UncalledRegistration] {
        withState { $0.uncalled }
    }

    /// Records that `registration`, of `core`, was made at `site`, of a delegate of type `delegateType` (owned by
    /// an object of type `ownerType`, for an owned registration), if settings apply to the multicast; then prunes,
    /// if it is time.
    func record(
        _ registration: Int64, site: RegistrationSite, delegateType: any AnyObject.Type,
        ownerType: (any AnyObject.Type)?, of core: _Core
    ) {
        let mayPrune = withState { state -> Bool in
            let (processWide, processGaps) = _ProcessWideSettings.shared.settingsAndGaps
            guard let settings = state.settings ?? processWide else { return false }
            let watch =
                settings.tracesCalls
                ? _Watch(multicastGaps: state.gaps, processGaps: state.settings == nil ? processGaps : nil) : nil
            state.insert(
                _Record(
                    registration: registration, site: site, delegateType: delegateType, ownerType: ownerType,
                    watch: watch))
            return state.records.count >= state.pruneAt && state.readers == 0
        }
        if mayPrune { prune(core) }
    }

    /// Drops the records of the registrations of `core` that have ended, unless a reading is under way.
    private func prune(_ core: _Core) {
        let (registered, newest) = core.registrations()
        let live = Set(registered)
        let dropped = withState { state -> [_Record]? in
            guard state.readers == 0 else { return nil }
            let old = state.records
            // A registration newer than `newest` was made after the core was read: it is kept.
            state.records = old.filter { $0.registration > newest || live.contains($0.registration) }
            state.pruneAt = Swift.max(16, 2 * state.records.count, registered.count)
            return old
        }
        extendLifetime(dropped)  // freed here, with no lock held
    }
}

extension _Notes.State {
    /// Where the record of `registration` is, or would be.
    func position(of registration: Int64) -> Int {
        var (low, high) = (0, records.count)
        while low < high {
            let middle = (low + high) / 2
            if records[middle].registration < registration { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Where the record of `registration` is, if there is one.
    func index(of registration: Int64) -> Int? {
        let position = position(of: registration)
        return position < records.count && records[position].registration == registration ? position : nil
    }

    /// Inserts `record`, or replaces the record of its registration: at the end, but for an add whose record
    /// arrives after that of a later one.
    mutating func insert(_ record: _Record) {
        if records.last.map({ $0.registration < record.registration }) ?? true {
            records.append(record)
            return
        }
        let position = position(of: record.registration)
        if position < records.count && records[position].registration == record.registration {
            records[position] = record
        } else {
            records.insert(record, at: position)
        }
    }
}

/// A reading of a multicast's records, under way from its start, before a pass, until it has looked up the
/// records it needs: while one is, no record is pruned. Noncopyable, with a `deinit` that ends it, so that a
/// reading cannot be left open.
struct _NotesReading: ~Copyable {
    private var notes: _Notes?

    /// Begins a reading of `notes`.
    init(_ notes: _Notes) {
        notes.beginReading()
        self.notes = notes
    }

    /// Takes over the reading that ``_Notes/startTrace()`` began.
    fileprivate init(begunOn notes: _Notes) {
        self.notes = notes
    }

    /// Ends the reading: see ``_Notes/endReading(lookingUp:called:ended:named:)``.
    consuming func end(
        lookingUp registrations: [Int64], called: Bool = false, ended: [Int64] = [], named: Bool = false
    ) -> (records: [_Record?], uncalled: [UncalledRegistration]) {
        let notes = notes!
        self.notes = nil
        return notes.endReading(lookingUp: registrations, called: called, ended: ended, named: named)
    }

    deinit {
        _ = notes?.endReading(lookingUp: [], called: false, ended: [], named: false)
    }
}

/// A traced call about to start: the settings that apply to it, and the reading of the records begun for it.
@usableFromInline
struct _TraceStart: ~Copyable {
    let settings: _DiagnosticsBox
    var reading: _NotesReading
}

/// The settings for every multicast that has none of its own, under a lock of their own, which is taken last:
/// while it is held, no other lock is taken.
///
/// Unchecked: `value` is read and written only with `lock` held.
final class _ProcessWideSettings: @unchecked Sendable {
    static let shared = _ProcessWideSettings()

    private let lock = _Lock()
    @exclusivity(unchecked)  // as `_Notes.state`
    private var value: _DiagnosticsBox?
    @exclusivity(unchecked)
    private var gapCount = 0

    /// The process's count of the times calls may have gone untraced (see `_Watch`).
    var gaps: Int {
        settingsAndGaps.gaps
    }

    /// The settings, and the process's count of gaps, read together.
    var settingsAndGaps: (settings: _DiagnosticsBox?, gaps: Int) {
        lock.lock()
        defer { lock.unlock() }
        return unsafe (value, gapCount)
    }

    /// The settings. Setting them counts the change in the switch that calls read, under the lock, as the change
    /// is made (see `_Diagnostics`).
    var settings: _DiagnosticsBox? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return unsafe value
        }
        set {
            lock.lock()
            let old = unsafe value
            unsafe value = newValue
            if !(newValue?.tracesCalls ?? false) { unsafe gapCount += 1 }
            if (old == nil) != (newValue == nil) { _Diagnostics.count(on: newValue != nil) }
            lock.unlock()
            extendLifetime(old)  // released here, with no lock held
        }
    }
}

extension MulticastDelegate {
    /// An add while diagnostics are on somewhere: the core's add, then, if it registered the delegate and
    /// settings apply to this multicast, a record that the registration was made at `file` and `line`. Out of
    /// line, and not generic, so that the hot add only gains the branch that leads here.
    @usableFromInline
    func _addRecordingSite(
        bitsOf value: UnsafeRawPointer, object: Unmanaged<AnyObject>, owner: Unmanaged<AnyObject>,
        holding: _Holding, to core: _Core, file: StaticString, line: UInt
    ) -> _Addition {
        let addition = unsafe core.add(bitsOf: value, object: object, owner: owner, holding: holding)
        switch addition {
        case .added, .replaced: break
        case .alreadyRegistered, .registeredWithOtherRetention, .deallocating, .ownerDeallocating: return addition
        }
        let owned: Bool
        switch holding {
        case .owned: owned = true
        case .weak, .strong: owned = false
        }
        guard _notes.settingsInEffect != nil, let registration = unsafe core.registration(of: owner, owned: owned)
        else { return addition }
        unsafe _notes.record(
            registration, site: RegistrationSite(fileID: file, line: line),
            delegateType: type(of: object.takeUnretainedValue()),
            ownerType: owned ? type(of: owner.takeUnretainedValue()) : nil, of: core)
        return addition
    }
}
