import _MulticastCore

/// How a multicast holds on to a delegate.
///
/// A delegate is held or it is not: these two cases are all there will ever be, so a `switch` over them needs no
/// `default`, also against Multicast built as a binary framework.
@frozen
public enum Retention: Sendable, Hashable {
    /// The multicast does not keep the delegate alive; once the delegate is deallocated it is no longer
    /// called, counted or contained. The default, as for a single `weak var delegate`.
    case weak

    /// The multicast keeps the delegate alive until it is removed, `removeAll()` is called, or the
    /// multicast itself is deallocated. For delegates that nothing else owns, such as a logger.
    ///
    /// Diagnostics also report `strong` for a delegate added with
    /// ``MulticastDelegate/add(_:ownedBy:file:line:)``, which the multicast holds strongly while its owner lives;
    /// their `ownerType`, nil for a delegate added with `strong`, tells the two apart.
    case strong

    @inlinable
    @inline(always)
    var isStrong: Bool {
        switch self {
        case .weak: false
        case .strong: true
        }
    }
}

/// An object that calls every registered delegate of a protocol: a type-safe, thread-safe replacement for
/// `NotificationCenter` for in-app events.
///
/// Declare the events as a protocol, keep one `MulticastDelegate` of it, let interested objects add
/// themselves, and call them all:
///
/// ```swift
/// protocol TabBarDelegate: AnyObject {
///     func tabBarDidSelect(tag: Int)
/// }
///
/// let tabBar = MulticastDelegate<any TabBarDelegate>()
///
/// tabBar.add(firstScreen)      // held weakly
/// tabBar.add(secondScreen)
/// tabBar.call { $0.tabBarDidSelect(tag: 2) }
///
/// let titles = tabBar.map { $0.title }  // results, in the order the delegates were added
/// ```
///
/// "Jump to definition" on `tabBarDidSelect` finds every receiver, the compiler checks every argument, and no
/// observer token or downcast is involved.
///
/// ### Lifetime
///
/// Delegates are held weakly unless added with ``Retention/strong``. A weak delegate that is deallocated is
/// never called again, and is no longer counted or contained. Its registration is unregistered by the first pass
/// over the delegates that reaches it (a call, an iteration or a `Sequence` method, ``count`` or ``isEmpty``), as
/// that pass ends, or by the search for ended registrations that an add makes before the list of delegates grows;
/// what the multicast kept for it goes then. There is no need to remove a delegate in its `deinit`, and a
/// `remove(self)` there answers `false`, since the multicast has let go of it already. Adding a delegate from its
/// own `deinit` stops the program with a message: it could never be called. (A strong one, in a debug build
/// without the Objective-C runtime, is stopped by the Swift runtime's own check, as the `deinit` ends.)
///
/// A delegate must be a class instance; adding a value of another type (a struct conforming to a protocol
/// that is not class-bound) stops the program, and ``contains(_:)`` and ``remove(_:)`` answer `false` for it.
/// `Delegate` may be any type whose values can be class instances (a class, `AnyObject`, `Any`, a protocol, a
/// constrained protocol such as `any Source<Int>`, or a composition) but `any Error` (see ``init()``); creating a
/// multicast of another type stops the program with a message that says what to declare instead.
///
/// ### Order
///
/// ``call(_:)-rlcb`` and iteration visit the delegates in the order they were added. Adding a delegate that is
/// already registered changes nothing (adding it with the other retention stops the program with a message: a
/// delegate has one retention); removing it and adding it again moves it to the end. Identity, not
/// `==`, tells delegates apart.
///
/// ### Threads
///
/// Every member may be used from any thread at the same time. The multicast is `Sendable` when `Delegate`
/// is. No lock is held while delegate code runs, and a call that starts after `remove(x)` has returned (on the
/// same thread, or on one that a lock, a queue, an actor or an `await` ordered after it) never calls `x`.
/// Delegates run on the thread that calls ``call(_:)-rlcb``, which takes no lock; a removal never copies the
/// delegates, however many calls run meanwhile.
///
/// ### Re-entrancy
///
/// Delegate code may add, remove and call delegates of this multicast or any other, on any thread. A call
/// (a *pass*) calls the delegates that were registered when it started, less those removed or deallocated
/// before their turn: with delegates 0 to 3, if delegate 0 removes delegate 1, the pass calls 0, 2 and 3.
/// A delegate added during a pass is first called by the next pass. A nested call runs fully.
public final class MulticastDelegate<Delegate> {
    @usableFromInline
    let _core: _Core

    /// What diagnostics keep for this multicast (see `_Notes`); nothing of it is in the core.
    let _notes: _Notes

    /// Creates a multicast with no delegates.
    ///
    /// - Precondition: `Delegate` is a class, or a protocol or composition other than `any Error`, alone or with a
    ///   class constraint (`any Error & AnyObject`, `any C & Error`: values that the Swift runtime may keep in a
    ///   box, which the multicast cannot hold weakly): not a closure, an optional, a struct, an enum, a tuple or
    ///   a metatype. Declare a protocol for the events instead.
    public init() {
        _notes = _Notes(label: nil)
        _core = Self._makeCore(notes: _notes)
    }

    /// Creates a multicast with no delegates, named `label` in its traces and descriptions.
    ///
    /// ```swift
    /// let messages = MulticastDelegate<any MessageDelegate>(label: "messages")
    /// ```
    ///
    /// The label is for people reading a trace (see ``MulticastDiagnostics``): a multicast without one is
    /// named by its type, `MulticastDelegate<MessageDelegate>`, which does not tell two multicasts of the same
    /// protocol apart.
    ///
    /// - Parameter label: The multicast's name in traces and in ``debugDescription``.
    /// - Precondition: `Delegate` is a type that ``init()`` accepts.
    public init(label: String) {
        _notes = _Notes(label: label)
        _core = Self._makeCore(notes: _notes)
    }

    /// The core of a new multicast, which tells `notes` of the registrations that end; stops the program, with a
    /// message that says what to declare instead, if `Delegate` cannot be a delegate type (see ``_DelegateKind``).
    static func _makeCore(notes: _Notes) -> _Core {
        let kind: _DelegateKind
        do {
            kind = try _DelegateKind(of: Delegate.self)
        } catch {
            _refuse(error)
        }
        return _Core(layout: _DelegateLayout(of: Delegate.self), delegateKind: kind, endedRegistrationsObserver: notes)
    }

    /// The name given to ``init(label:)``; nil for a multicast made with ``init()``.
    public var label: String? {
        _notes.label
    }

    /// Adds a delegate, held weakly, after those already registered.
    ///
    /// ```swift
    /// messages.add(self)
    /// ```
    ///
    /// - Parameters:
    ///   - delegate: A class instance. If it is already registered weakly, nothing changes.
    ///   - file: Where the delegate is added, which diagnostics record; leave the default, the caller's file.
    ///   - line: Where the delegate is added, which diagnostics record; leave the default, the caller's line.
    /// - Returns: `true` if the delegate was added, `false` if it was already registered weakly.
    /// - Precondition: `delegate` is a class instance, is not being deallocated (called from its `deinit`), is
    ///   not this multicast, and is not registered strongly: remove it first, then add it weakly.
    /// - Complexity: Amortized O(1).
    @inlinable
    @inline(always)  // see "Writing the call path" in CONTRIBUTING.md
    @discardableResult
    public func add(_ delegate: Delegate, file: StaticString = #fileID, line: UInt = #line) -> Bool {
        add(delegate, retention: .weak, file: file, line: line)
    }

    /// Adds a delegate after those already registered, held as `retention` says.
    ///
    /// ```swift
    /// events.add(AnalyticsLogger(), retention: .strong)  // nothing else owns the logger
    /// ```
    ///
    /// - Parameters:
    ///   - delegate: A class instance. If it is already registered with this retention, nothing changes, and
    ///     it keeps its position.
    ///   - retention: Whether the multicast keeps the delegate alive.
    ///   - file: Where the delegate is added, which diagnostics record; leave the default, the caller's file.
    ///   - line: Where the delegate is added, which diagnostics record; leave the default, the caller's line.
    /// - Returns: `true` if the delegate was added, `false` if it was already registered with this retention.
    /// - Precondition: `delegate` is a class instance, is not being deallocated (called from its `deinit`),
    ///   is not this multicast (a multicast that conforms to its own delegate protocol, added to itself,
    ///   would call itself without end), and is not registered already with the other retention: a delegate
    ///   has one retention, so remove it first, then add it again with the retention it is to have.
    /// - Complexity: Amortized O(1). The site is recorded only while diagnostics are on for this multicast or
    ///   the process (see ``MulticastDiagnostics``); otherwise `file` and `line` cost nothing.
    @inlinable
    @inline(always)  // see "Writing the call path" in CONTRIBUTING.md
    @discardableResult
    public func add(
        _ delegate: Delegate, retention: Retention, file: StaticString = #fileID, line: UInt = #line
    ) -> Bool {
        _add(delegate, retention: retention, ownedBy: nil, file: file, line: line)
    }

    /// Adds a delegate after those already registered, held strongly for as long as `owner` lives, and found,
    /// replaced and removed by `owner`.
    ///
    /// The registration is the owner's: when the owner is deallocated, it ends on its own, as a weak delegate's
    /// does, and no call that starts afterwards calls the delegate. Use it where an observer's registration carries
    /// state of its own (a subscription with its options, a closure), kept for as long as the observer lives:
    ///
    /// ```swift
    /// events.add(ClosureObserver { [weak self] in self?.refresh() }, ownedBy: self)
    /// events.remove(ownedBy: self)  // or nothing: the registration ends when `self` is deallocated
    /// ```
    ///
    /// An owner has one registration in a multicast: adding another for the same owner replaces the first,
    /// which is no longer called, and the new one takes its turn after those already registered, as a removal
    /// followed by an add would. An owned registration is found through its owner only: ``remove(ownedBy:)``
    /// and ``delegate(ownedBy:)`` find it, ``remove(_:)`` and ``contains(_:)`` do not. Calls, iteration and
    /// ``count`` include it while its owner lives; ``description``, ``registeredDelegates()`` and traces show it as
    /// owned, with its owner's class (`owned by Store`), and its retention as ``Retention/strong``.
    ///
    /// The multicast releases the delegate when the registration is removed or replaced. Once the owner has died,
    /// the first pass over the delegates that reaches the registration releases the delegate as that pass ends: a
    /// call, an iteration or a `Sequence` method, ``count`` or ``isEmpty``, on any thread (if other calls are
    /// reading the delegates then, when the last of them ends); so does the search for ended registrations that an
    /// add makes before the list of delegates grows. Until one of these reaches it, the delegate stays; to release
    /// it at once, call ``remove(ownedBy:)`` in the owner's `deinit`. The delegate must not keep its owner alive, or
    /// neither is ever released while the multicast lives: capture the owner `weak` in a closure that it keeps.
    ///
    /// The multicast does not keep the owner alive. Where every object is a native Swift object (all but Apple
    /// platforms), it holds the owner as a Swift `unowned` reference does, which costs the owner no side table: a
    /// dead owner keeps its memory, not what its `deinit` released, until the delegate is released, which lets go
    /// of both. With the Objective-C runtime, it holds a weak reference to the owner.
    ///
    /// - Parameters:
    ///   - delegate: A class instance, held strongly until the registration ends.
    ///   - owner: The object whose life the registration lasts, not kept alive, and told apart by identity.
    ///   - file: Where the delegate is added, which diagnostics record; leave the default, the caller's file.
    ///   - line: Where the delegate is added, which diagnostics record; leave the default, the caller's line.
    /// - Returns: `true` if the delegate was registered, replacing `owner`'s earlier registration if it had one;
    ///   `false` if `owner` is being deallocated (the add was made from its `deinit`), and then nothing changes.
    /// - Precondition: `delegate` is a class instance, is not being deallocated, and is neither this multicast
    ///   nor `owner`; `owner` is not this multicast.
    /// - Complexity: Amortized O(1).
    @inlinable
    @inline(always)  // see "Writing the call path" in CONTRIBUTING.md
    @discardableResult
    public func add(_ delegate: Delegate, ownedBy owner: AnyObject, file: StaticString = #fileID, line: UInt = #line)
        -> Bool
    {
        // The caller's argument keeps the owner alive until the add returns.
        _add(delegate, retention: .strong, ownedBy: unsafe _Object(owner), file: file, line: line)
    }

    /// Both `add` methods: registers `delegate`, owned by `owner` if there is one, else held as `retention` says.
    /// Where the delegates are class references, its bits are read here, in the caller's code, where its type is
    /// known (see `_DelegateBits`); for another type, out of line, by a cast.
    @inlinable
    @inline(always)
    func _add(
        _ delegate: Delegate, retention: Retention, ownedBy owner: _Object?, file: StaticString, line: UInt
    ) -> Bool {
        let core = _core  // read once: an unoptimized build retains the core at each read
        guard case .references = core.delegateKind, var bits = unsafe _DelegateBits(of: delegate) else {
            return _addByCast(delegate, retention: retention, ownedBy: owner, core: core, file: file, line: line)
        }
        return unsafe _add(
            bitsAt: &bits, object: bits.object, retention: retention, ownedBy: owner, core: core, file: file,
            line: line)
    }

    /// `add` once the delegate's bits (at `bits`) and object are known: the part that knows nothing of the
    /// delegates' type, compiled in Multicast, with the core inlined into it.
    @inlinable
    func _add(
        bitsAt bits: UnsafeRawPointer, object: _Object, retention: Retention, ownedBy owner: _Object?,
        core: _Core, file: StaticString, line: UInt
    ) -> Bool {
        let registrant: _Object
        let holding: _Holding
        if let owner {
            _refuseIfSelf(object, orOwner: owner)
            registrant = owner
            holding = .owned
        } else {
            _refuseIfSelf(object)
            registrant = object
            holding = retention.isStrong ? .strong : .weak
        }
        // The core bit-copies the value, which stays the caller's, destroyed by it alone (see `_Slot`). While
        // diagnostics are on somewhere, an out-of-line add records the site: a branch here, since an out-of-line
        // call that took the delegate made the optimizer retain and release it around the checks above (about 190
        // more instructions per add and remove of a strong delegate).
        let addition =
            unsafe _Diagnostics.areOnAnywhere
            ? _addRecordingSite(
                bitsOf: bits, object: object, owner: registrant, holding: holding, to: core, file: file, line: line)
            : core.add(bitsOf: bits, object: object, owner: registrant, holding: holding)
        return _answer(to: addition, of: object, retention: retention)
    }

    /// `add` for a delegate type whose values are not known to be one or two words of a class reference (see
    /// `_DelegateBits`): it finds the object by a dynamic cast. Out of line in an unoptimized build.
    @inlinable
    func _addByCast(
        _ delegate: Delegate, retention: Retention, ownedBy owner: _Object?, core: _Core, file: StaticString,
        line: UInt
    ) -> Bool {
        let kind = core.delegateKind
        guard let object = unsafe kind.object(of: delegate) else {
            Self._refuseNonClass(type(of: delegate as Any))
        }
        return unsafe kind.withBitsToStore(of: delegate, object: object) { bits in
            unsafe _add(
                bitsAt: bits, object: object, retention: retention, ownedBy: owner, core: core, file: file, line: line)
        }
    }

    /// What `add` returns for the core's `addition` of `object`; stops the program for an addition that can
    /// never be what the caller meant.
    @inlinable
    @inline(always)
    func _answer(to addition: _Addition, of object: _Object, retention: Retention) -> Bool {
        switch addition {
        case .added, .replaced: return true
        case .alreadyRegistered, .ownerDeallocating: return false
        case .registeredWithOtherRetention: Self._refuseOtherRetention(object, asked: retention)
        case .deallocating: Self._refuseDeallocating(object)
        }
    }

    /// The object that `delegate` is, unretained, or nil if it is not a class instance: read from its bits where
    /// `core` knows the delegates to be class references (see `_DelegateBits`), else found by a dynamic cast.
    @inlinable
    @inline(always)
    func _object(of delegate: Delegate, core: _Core) -> _Object? {
        let kind = core.delegateKind
        if case .references = kind, let bits = unsafe _DelegateBits(of: delegate) {
            return unsafe bits.object
        }
        return _objectByCast(delegate, kind: kind)
    }

    /// The object that `delegate`, of `kind`, is, found by a dynamic cast: out of line in an unoptimized build, and
    /// a method, so that a caller that inlines `_object(of:core:)` looks up no metadata to call it.
    @inlinable
    func _objectByCast(_ delegate: Delegate, kind: _DelegateKind) -> _Object? {
        unsafe kind.object(of: delegate)
    }

    /// Stops the program if `object`, a delegate to add, is this multicast.
    @inlinable
    @inline(always)
    func _refuseIfSelf(_ object: _Object) {
        if object.isIdentical(to: self) { Self._refuseSelf() }
    }

    /// Stops the program if `object`, a delegate to add, or `owner`, its owner, is this multicast, or if they are
    /// one object.
    @inlinable
    @inline(always)
    func _refuseIfSelf(_ object: _Object, orOwner owner: _Object) {
        _refuseIfSelf(object)
        if owner.isIdentical(to: object) {
            Self._refuseOwnOwner(owner)
        }
        if owner.isIdentical(to: self) { Self._refuseSelfAsOwner() }
    }

    /// Removes a delegate.
    ///
    /// When `remove` returns, no call that starts afterwards calls the delegate, and a call already under
    /// way does not call it either if its turn has not come yet. A strong delegate is released at once, or, if
    /// a call is under way, when the last such call ends.
    ///
    /// - Parameter delegate: The delegate to remove.
    /// - Returns: `true` if the delegate was registered, `false` otherwise: also from the delegate's own
    ///   `deinit`, where a weak delegate is gone already, and for a value that is not a class instance, which can
    ///   never be registered.
    /// - Complexity: Amortized O(1), whatever other threads are doing: the removal marks the delegate's slot
    ///   in place, and never copies the delegates. While a call that started before the list of delegates was
    ///   last rebuilt is still under way, it also finds the slot in that call's older list, in O(log *n*).
    @inlinable
    @inline(always)  // see "Writing the call path" in CONTRIBUTING.md
    @discardableResult
    public func remove(_ delegate: Delegate) -> Bool {
        let core = _core  // read once, as in `add`
        guard let object = _object(of: delegate, core: core) else { return false }
        return _remove(object, core: core)
    }

    /// `remove` once the delegate's object is known: compiled in Multicast, with the core inlined into it.
    @inlinable
    func _remove(_ object: _Object, core: _Core) -> Bool {
        core.remove(object)
    }

    /// Removes the registration that `owner` made with ``add(_:ownedBy:file:line:)``.
    ///
    /// When it returns, no call that starts afterwards calls the delegate, and a call already under way does not
    /// call it either if its turn has not come yet. The delegate is released at once, or, if a call is under way,
    /// when the last such call ends.
    ///
    /// From the owner's `deinit`, where the registration has ended with the owner, a removal is not needed: it
    /// releases the delegate at once rather than at the next pass over the delegates that reaches it (see
    /// ``add(_:ownedBy:file:line:)``). It answers `false` if such a pass released it first (on another thread, or
    /// earlier in the `deinit`): either answer there means the delegate is released (or will be, once the calls
    /// under way end).
    ///
    /// - Parameter owner: The owner whose registration to remove, by identity.
    /// - Returns: `true` if this removal ended `owner`'s registration; `false` if `owner` has none: none was made,
    ///   it was removed or replaced, or, from the owner's `deinit`, it was released already.
    /// - Complexity: Amortized O(1), as ``remove(_:)``.
    @inlinable
    @discardableResult
    public func remove(ownedBy owner: AnyObject) -> Bool {
        _core.remove(ownedBy: owner)
    }

    /// The delegate of the registration that `owner` made with ``add(_:ownedBy:file:line:)``, if it has one.
    ///
    /// - Parameter owner: The owner whose delegate to find, by identity.
    /// - Returns: The delegate, or nil if `owner` has no registration: none was made, or it was removed, or
    ///   `owner` is being deallocated.
    /// - Complexity: O(1).
    @inlinable
    public func delegate(ownedBy owner: AnyObject) -> Delegate? {
        _core.delegate(ownedBy: owner, as: Delegate.self)
    }

    /// Removes every delegate, releasing those held strongly.
    ///
    /// - Complexity: O(*n*): it marks every delegate's slot, so that calls under way stop.
    @inlinable
    public func removeAll() {
        _core.removeAll()
    }

    /// Returns whether a delegate is registered (and, if held weakly, alive: it is, since you pass it).
    ///
    /// The multicast tells delegates apart by identity, here as in ``add(_:file:line:)`` and ``remove(_:)``: of two
    /// equal objects, only the one registered is contained. Generic code that takes the multicast as a
    /// `Sequence` does not call this method: there `contains(_:)` is the standard library's, which needs
    /// `Equatable` delegates, compares them with `==`, and visits the delegates one after another.
    ///
    /// - Parameter delegate: The delegate to look for, by identity. For a value that is not a class instance,
    ///   which can never be registered, the answer is `false`.
    /// - Complexity: O(1).
    @inlinable
    @inline(always)  // see "Writing the call path" in CONTRIBUTING.md
    public func contains(_ delegate: Delegate) -> Bool {
        let core = _core  // read once, as in `add`
        guard let object = _object(of: delegate, core: core) else { return false }
        return _contains(object, core: core)
    }

    /// `contains` once the delegate's object is known: compiled in Multicast, with the core inlined into it.
    @inlinable
    func _contains(_ object: _Object, core: _Core) -> Bool {
        core.contains(object)
    }

    /// The number of registered delegates that are alive.
    ///
    /// Another thread may add or remove delegates at any time, so the answer may be out of date when it
    /// arrives; use it for display and tests, not to decide whether to call.
    ///
    /// - Complexity: O(*n*): each weak delegate, and each owned delegate's owner, is checked for life. If it
    ///   finds registrations that ended with their delegates or owners, it unregisters them as it ends, taking the
    ///   lock once.
    public var count: Int {
        _core.countAlive()
    }

    /// Whether no registered delegate is alive.
    ///
    /// - Complexity: O(1) when a delegate is alive; at most O(*n*). If it finds registrations that ended with their
    ///   delegates or owners before the first live delegate, it unregisters them as it ends, taking the lock once.
    public var isEmpty: Bool {
        !_core.hasAlive()
    }

    /// Calls `body` with every delegate, one after another, in the order they were added.
    ///
    /// ```swift
    /// messages.call { $0.didReceive(message) }
    /// ```
    ///
    /// `body` runs on the calling thread with no lock held, so it may add, remove and call delegates.
    /// The call visits the delegates registered when it started, less those removed or deallocated before
    /// their turn.
    ///
    /// The call throws what `body` throws, with its type: a body that throws nothing makes the call throw
    /// nothing, and one that throws a `ValidationError` makes it throw a `ValidationError`. (Swift infers a
    /// closure's thrown type as `any Error` unless the closure states it, `{ delegate throws(ValidationError) in
    /// ... }`.)
    ///
    /// - Parameter body: What to do with each delegate. If it throws, no further delegate is called and the
    ///   error is rethrown.
    /// - Complexity: O(*n*), and no allocation, in optimized and unoptimized builds alike. The call counts
    ///   itself in with one atomic operation, without the lock; then, per delegate, it reads the delegate's slot
    ///   and, for a weak delegate, makes one weak load. As it ends, it takes the lock once if it found
    ///   registrations that ended with their delegates or owners, to unregister them, or if it is the last call to
    ///   end after a delegate was removed during it, to release what the removed delegate's slot held. A call that
    ///   starts while another thread rewrites the delegates in place waits for that change to end.
    @inlinable
    @inline(always)  // see "Writing the call path" in CONTRIBUTING.md
    public func call<Failure: Error>(_ body: (Delegate) throws(Failure) -> Void) throws(Failure) {
        // Diagnostics: see Diagnostics/Tracing.swift.
        if _Diagnostics.areOnAnywhere, let start = _startTrace() {
            return try _callTraced(body, start)
        }
        var untraced = _Untraced()
        try _call(body, observing: &untraced)
    }

    /// The loop of ``call(_:)-rlcb``, traced or not: calls `body` with every delegate, telling `observer` of each
    /// turn. The one place where a pass is ended by hand (see "Writing the call path" in CONTRIBUTING.md); an
    /// untraced call's observer, inlined, leaves the loop as it would be without one.
    @inlinable
    @inline(always)
    func _call<Failure: Error, Observer: _TurnObserver & ~Copyable>(
        _ body: (Delegate) throws(Failure) -> Void, observing observer: inout Observer
    ) throws(Failure) {
        var pass = unsafe _Pass(_core)
        var keeper: AnyObject?  // keeps each weak delegate alive for its turn
        do throws(Failure) {
            while let slot = unsafe pass.next(keeping: &keeper, observing: &observer) {
                unsafe observer.turnBegins(slot)
                unsafe try slot.lend(as: Delegate.self, body)
                observer.turnReturned()
            }
        } catch {
            pass.finish()
            _fixLifetime(self)  // the pass holds the core unretained: keep it alive to the pass's end
            throw error
        }
        pass.finish()
        _fixLifetime(self)
    }
}

// The registry, the only mutable state, is guarded by the lock in `_core`; passes read storages in which, while
// they read, only slot keys change, atomically (see `_Slot`). So a multicast may be shared whenever its delegates may.
extension MulticastDelegate: @unchecked Sendable where Delegate: Sendable {}
