@testable import Multicast
@testable import _MulticastCore

/// What the tests read of a multicast's inside, to check what its public members cannot show: how much memory
/// it keeps, and what waits for the passes under way.
extension MulticastDelegate {
    /// Slots the current storage uses, removed and dead ones included.
    var slotsInUse: Int { _core.withLock { $0.slots.count } }

    /// Slots the current storage has room for.
    var slotCapacity: Int { _core.withLock { $0.slots.capacity } }

    /// Older storages kept for the passes that still read them.
    var retiredStorages: Int { _core.withLock { $0.deferred.retired?.count ?? 0 } }

    /// Removed slots of the current storage whose references have not been released yet.
    var pendingReleases: Int { _core.withLock { $0.deferred.pending.count } }

    /// The current storage's readers word: the passes reading it, and the bit that asks the last to collect.
    /// For tests that no other thread uses the multicast in.
    var readersWord: Int { _core.withLock { $0.slots.readers.pointee } }

    /// The current storage, to tell whether a change replaced it.
    var storageIdentity: ObjectIdentifier { _core.withLock { ObjectIdentifier($0.storage) } }

    /// The tickets that the multicast's storages have ever needed at once: each stays allocated until the
    /// multicast goes.
    var ticketsAllocated: Int { _core.withLock { $0.tickets.all.count } }

    /// Runs `body` while this thread holds the multicast's lock, as a change does while it works.
    func whileHoldingTheLock<Result>(_ body: () -> Result) -> Result { _core.withLock { _ in body() } }
}

extension MulticastDelegate {
    /// The slots of the current storage and of the older ones kept for passes that still own their references
    /// (a delegate's weak reference or count, an owner's pin), and how many of those pin an owner's memory.
    var slotsOwningReferences: (all: Int, pinningOwners: Int) {
        _core.withLock { registry in
            var counted = (all: 0, pinningOwners: 0)
            for storage in [registry.storage] + (registry.deferred.retired ?? []) {
                for position in 0..<storage.slots.count where storage.slots.key(at: position).ownsReferences {
                    counted.all += 1
                    if storage.slots.key(at: position).pinsOwner { counted.pinningOwners += 1 }
                }
            }
            return counted
        }
    }
}

extension _Storage {
    /// A storage for a test of the slots alone, with a ticket of its own, which the test leaks.
    convenience init(capacity: Int, layout: _DelegateLayout) {
        var tickets = _Tickets()
        self.init(capacity: capacity, layout: layout, tickets: &tickets)
    }
}
