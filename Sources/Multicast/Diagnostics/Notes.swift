import _MulticastCore

/// What was recorded of a registration made while diagnostics applied to its multicast.
struct _Record {
    var registration: Int64
    var site: RegistrationSite
    var delegateType: any AnyObject.Type
    /// The owner's class, for an owned registration.
    var ownerType: (any AnyObject.Type)?
    /// The watch under which the registration was made. While the multicast's watch is still this one, every call
    /// since the registration was made has been watched: diagnostics applied to it.
    var watch: _Watch
    /// Whether the registration is in the multicast's list of those that ended before their first call.
    var listed = false

    /// What the record tells of a registration that ended before its first call.
    var uncalled: UncalledRegistration {
        UncalledRegistration(delegateType: delegateType, ownerType: ownerType, site: site)
    }
}

/// How many times a multicast's calls may have gone unwatched: a record made under one watch knows whether its
/// delegate was called only while the watch lasts. A call made while settings apply is watched: a traced call
/// records its turns, and one under settings that trace nothing (``MulticastDiagnostics/recordingSites``) notes how
/// far it called (see `calledThrough`). The multicast's count goes up with each call not watched while diagnostics
/// are on somewhere (no settings apply, or a call from a handler), and each time its own settings are cleared; the
/// process's, each time the process-wide settings are cleared (calls made while diagnostics are off everywhere
/// follow such a change). A watch begun under the multicast's own settings, which decide its every call while set,
/// does not depend on the process's.
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
/// Its lock guards `state` alone. It may be taken while the core's lock is held (an add records its registration
/// under the core's lock, before a pass can meet it, and the core tells of registrations that ended under it), but
/// the core's lock is never taken while it is held: a pruning reads the core's registrations before it takes this
/// lock. While it is held, the process-wide settings' lock may be taken, never the other way round.
///
/// The records are in registration order. Those of ended registrations are pruned when the records have doubled
/// since the last pruning (see `prune(_:)`): amortized O(1) per add. A pruning drops nothing while a reading is
/// under way (a trace, or a listing of the registered delegates): each begins before its pass and ends once it has
/// looked up the records it needs, so that the record of a delegate that its pass saw is there when it looks, even
/// if the delegate was removed meanwhile.
///
/// Unchecked: `state` is read and written only with `lock` held.
final class _Notes: _EndedRegistrationsObserver, @unchecked Sendable {
    /// The label given to the multicast's `init(label:)`.
    let label: String?

    private let lock = _Lock()
    // Unchecked: the lock already excludes overlapping accesses, which a dynamic check would look for on every
    // access, at the cost of two calls into the runtime.
    @exclusivity(unchecked)
    private var state = State()

    struct State {
        var settings: _DiagnosticsBox?
        var records: [_Record] = []
        /// The readings under way, which no pruning may overlap.
        var readers = 0
        /// How many records the next pruning waits for.
        var pruneAt = 16
        /// The multicast's count of the times its calls may have gone unwatched (see `_Watch`).
        var gaps = 0
        /// The newest registration whose delegate a watched call has called. Every registration up to it has been
        /// called, or was unregistered before a call reached it, or ended before one did: a call visits the
        /// registrations older than it in order, and tells of those it found ended (see `registrationsEnded(_:)`)
        /// before this goes past them. So a registration up to this that ends was called.
        var calledThrough: Int64 = 0
        /// The registrations found ended before their first call, oldest first: the latest
        /// ``UncalledRegistration/kept``.
        var uncalled: [UncalledRegistration] = []
        /// Those of `uncalled` that no trace has named yet, oldest first: the next trace names them.
        var unnamed: [UncalledRegistration] = []
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
                if newValue == nil { state.gaps += 1 }
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

    /// The settings that watch a call made now, and a reading of the records begun for it; nil, with no reading
    /// begun, when no settings apply or the calling thread is running a diagnostics handler, whose calls are not
    /// watched, which counts as a gap in the multicast's watch (see `_Watch`).
    func startTrace() -> _TraceStart? {
        let isRunningHook = _Diagnostics.isRunningHook
        let settings = withState { state -> _DiagnosticsBox? in
            guard !isRunningHook, let settings = state.settings ?? _ProcessWideSettings.shared.settings else {
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

    /// Ends a reading: returns the records of `registrations` that there are; lists those of `ended` (found ended
    /// with their owners) that ended before their first call; notes that a call called every registration through
    /// `calledThrough` that it did not find ended; and, if `named`, returns the listed registrations that no trace
    /// has named yet, for a trace to name.
    func endReading(
        lookingUp registrations: [Int64], calledThrough: Int64, ended: [Int64], named: Bool
    ) -> (records: [_Record?], uncalled: [UncalledRegistration]) {
        withState { state in
            state.readers -= 1
            var records: [_Record?] = []
            records.reserveCapacity(registrations.count)
            for registration in registrations {
                records.append(state.index(of: registration).map { state.records[$0] })
            }
            state.listUncalled(ended)
            state.calledThrough = Swift.max(state.calledThrough, calledThrough)
            guard named else { return (records, []) }
            defer { state.unnamed.removeAll() }
            return (records, state.unnamed)
        }
    }

    /// Lists those of `registrations`, ended with their owners and unregistered, that ended before their first call:
    /// told by the core under its lock (see `_EndedRegistrationsObserver`), whatever pass found them, so that none
    /// goes unlisted.
    func registrationsEnded(_ registrations: [Int64]) {
        withState { $0.listUncalled(registrations) }
    }

    /// The registrations found ended before their first call, oldest first.
    var uncalled: [UncalledRegistration] {
        withState { $0.uncalled }
    }

    /// Records that `registration` was made at `site`, of a delegate of type `delegateType` (owned by an object of
    /// type `ownerType`, for an owned registration), if settings apply to the multicast; returns whether it is time
    /// to prune. Called under the core's lock, as the core makes the registration, before any pass can meet it.
    func record(
        _ registration: Int64, site: RegistrationSite, delegateType: any AnyObject.Type,
        ownerType: (any AnyObject.Type)?
    ) -> Bool {
        withState { state -> Bool in
            let (processWide, processGaps) = _ProcessWideSettings.shared.settingsAndGaps
            guard state.settings ?? processWide != nil else { return false }
            state.insert(
                _Record(
                    registration: registration, site: site, delegateType: delegateType, ownerType: ownerType,
                    watch: _Watch(multicastGaps: state.gaps, processGaps: state.settings == nil ? processGaps : nil)))
            return state.records.count >= state.pruneAt && state.readers == 0
        }
    }

    /// Drops the records of the registrations of `core` that have ended, unless a reading is under way.
    func prune(_ core: _Core) {
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
    /// Lists, once each, those of the registrations `ended` that ended before their first call: no watched call has
    /// called them (see `calledThrough`), and their watch still lasts, so that no call can have called them unseen.
    mutating func listUncalled(_ ended: [Int64]) {
        guard ended.count > 0 else { return }
        let processGaps = _ProcessWideSettings.shared.gaps
        for registration in ended where registration > calledThrough {
            guard let position = index(of: registration) else { continue }
            let record = records[position]
            guard !record.listed, record.watch.lasts(multicastGaps: gaps, processGaps: processGaps) else { continue }
            records[position].listed = true
            for list in [\Self.uncalled, \Self.unnamed] {
                self[keyPath: list].append(record.uncalled)
                if self[keyPath: list].count > UncalledRegistration.kept { self[keyPath: list].removeFirst() }
            }
        }
    }

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

    /// Ends the reading: see ``_Notes/endReading(lookingUp:calledThrough:ended:named:)``.
    consuming func end(
        lookingUp registrations: [Int64], calledThrough: Int64 = 0, ended: [Int64] = [], named: Bool = false
    ) -> (records: [_Record?], uncalled: [UncalledRegistration]) {
        let notes = notes!
        self.notes = nil
        return notes.endReading(lookingUp: registrations, calledThrough: calledThrough, ended: ended, named: named)
    }

    deinit {
        _ = notes?.endReading(lookingUp: [], calledThrough: 0, ended: [], named: false)
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

    /// The settings, set as ``_Notes/settings`` are.
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
            if newValue == nil { unsafe gapCount += 1 }
            if (old == nil) != (newValue == nil) { _Diagnostics.count(on: newValue != nil) }
            lock.unlock()
            extendLifetime(old)  // released here, with no lock held
        }
    }
}

extension MulticastDelegate {
    /// An add while diagnostics are on somewhere: the core's add, recording the site as it makes the registration
    /// (see `_SiteRecorder`), then a pruning of the records, if it is time. Out of line, and not generic, so that the
    /// hot add only gains the branch that leads here.
    @usableFromInline
    func _addRecordingSite(
        bitsOf value: UnsafeRawPointer, object: _Object, owner: _Object,
        holding: _Holding, to core: _Core, file: StaticString, line: UInt
    ) -> _Addition {
        var recorder = _SiteRecorder(
            notes: _notes, site: RegistrationSite(fileID: file, line: line),
            delegateType: unsafe type(of: object.takeUnretainedValue()),
            ownerType: holding == .owned ? unsafe type(of: owner.takeUnretainedValue()) : nil)
        let addition = unsafe core.add(
            bitsOf: value, object: object, owner: owner, holding: holding, recording: &recorder)
        if recorder.mayPrune { _notes.prune(core) }
        return addition
    }
}

/// What an add that diagnostics watch records, as the core makes its registration: see `_RegistrationRecorder`.
struct _SiteRecorder: _RegistrationRecorder {
    let notes: _Notes
    let site: RegistrationSite
    let delegateType: any AnyObject.Type
    let ownerType: (any AnyObject.Type)?
    /// Whether the records are due for a pruning, once the core's lock is let go of.
    var mayPrune = false

    mutating func registering(_ registration: Int64) {
        mayPrune = notes.record(registration, site: site, delegateType: delegateType, ownerType: ownerType)
    }
}
