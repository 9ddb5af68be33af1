/// What a multicast releases only once no pass reads it, and who releases it then: the references that removed
/// slots of the current storage still own, and the older storages that passes still read.
///
/// A pass reads a storage without the lock, so nothing it may read is released while it reads. A change that
/// would release such a thing leaves it here instead, and it is released, into the change's ``_Garbage``:
/// - *pending slots* (removed slots of the current storage that still own references): by the next change that
///   finds the storage unread, or by its compaction; or, when one of them owns a strong delegate, by the last pass
///   to leave it, so that a removed strong delegate goes as soon as the calls under way end (weak references wait,
///   which costs a calling thread no lock per pass under churn);
/// - *retired storages* (storages that a rebuild or `removeAll` replaced while passes read them): each by the
///   change that finds it unread, or by its last reader.
///
/// A storage's last reader collects when its ``_Readers`` word has the collect bit, which ``collect(current:_:)``
/// and ``retire(_:_:)`` set when they leave work to it.
///
/// Its invariant, which ``_Registry/checkInvariants()`` checks: `pending` lists, without repeats, exactly the
/// removed slots of the current storage that still own references, and `pendingStrong` those that own a strong
/// delegate; `retired` is nil rather than empty.
///
/// Each transition has one verb: ``wait(for:strong:)`` (a slot is removed), ``retire(_:_:)`` (a storage is
/// replaced), ``collect(current:_:)`` (what no pass reads any more is released), ``forgetPending()`` (the current
/// storage was compacted or replaced, and what its removed slots owned went with it).
@safe  // the storages it keeps are its own; the slots it names are the current storage's, given with each verb
@usableFromInline
struct _DeferredRelease {
    /// Storages that the current one replaced while passes were reading them; each is freed when its last reader
    /// leaves. Nil, not empty, when there are none: the changes ask it with no call.
    @usableFromInline
    var retired: [_Storage]?

    /// Positions in the current storage of removed slots that still own references, because passes were reading
    /// the storage when they were removed.
    @usableFromInline
    var pending: [Int] = []

    /// How many of the `pending` slots own a strong delegate.
    @usableFromInline
    var pendingStrong = 0

    init() {}

    /// Records that the slot at `position` of the current storage was removed and still owns its references (a
    /// count on its delegate if `strong`), for ``collect(current:_:)`` to release.
    @inlinable
    @inline(always)
    mutating func wait(for position: Int, strong: Bool) {
        pending.append(position)
        if strong { pendingStrong += 1 }
    }

    /// Frees `old`, a storage that is no longer current, if no pass reads it; else keeps it until its last reader
    /// leaves.
    @usableFromInline
    mutating func retire(_ old: _Storage, _ garbage: inout _Garbage) {
        if old.slots.collectNowOrByLastReader() == .now {
            garbage.append(old)
        } else {
            retired = (retired ?? []) + [old]
        }
    }

    /// Releases what no pass reads any more: the retired storages that are unread, and the pending slots of
    /// `current`, the current storage, once it is unread.
    @inlinable
    @inline(always)
    mutating func collect(current: _StorageHandle, _ garbage: inout _Garbage) {
        if retired != nil {
            freeUnreadRetired(&garbage)
        }
        guard pending.count > 0 else { return }
        if pendingStrong > 0 {
            switch current.collectNowOrByLastReader() {
            case .now: break
            case .byLastReader: return
            }
        } else if !current.isUnread {
            return
        }
        var next = 0
        while next < pending.count {
            if let object = current.release(at: pending[next]) {
                garbage.append(object)
            }
            next += 1
        }
        forgetPending()
    }

    /// Frees the retired storages that no pass reads any more.
    @usableFromInline
    mutating func freeUnreadRetired(_ garbage: inout _Garbage) {
        retired?.removeAll { old in
            guard old.slots.collectNowOrByLastReader() == .now else { return false }
            garbage.append(old)
            return true
        }
        if retired?.isEmpty == true { retired = nil }
    }

    /// Forgets the pending slots: the current storage was compacted, which released them, or replaced, and a
    /// retired storage releases them with its slots.
    @inlinable
    @inline(always)
    mutating func forgetPending() {
        pending.removeAll(keepingCapacity: true)
        pendingStrong = 0
    }

    /// Marks the slot of registration `registration` removed in the retired storages, which passes may still read.
    /// (Mutating, though nothing here changes, so that an unoptimized build does not copy it to call it.)
    @inlinable
    @inline(always)
    mutating func markRemovedInRetired(registration: Int64) {
        if let retired {
            Self.markRemoved(registration: registration, in: retired)
        }
    }

    @usableFromInline
    static func markRemoved(registration: Int64, in storages: [_Storage]) {
        for old in storages {
            old.slots.markRemoved(registration: registration)
        }
    }
}
