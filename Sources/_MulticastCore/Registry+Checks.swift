#if MULTICAST_INTERNAL_CHECKS
extension _Registry {
    /// Stops the program unless the registry's invariant holds (see ``_Registry``). `_Core.change(_:)` calls
    /// it after every change when the package is built with `MULTICAST_INTERNAL_CHECKS`, as CI's test runs are.
    @usableFromInline
    func checkInvariants() {
        func check(_ condition: Bool, _ message: @autoclosure () -> String) {
            precondition(condition, "Multicast's internal check failed: \(message())")
        }
        unsafe check(slots.header == storage.slots.header, "the registry's slots are not its storage's")
        let count = slots.count
        check(count <= slots.capacity, "\(count) slots in use in a storage of \(slots.capacity)")
        var previous: Int64 = 0
        var registered = 0
        var owning: [Int] = []
        var owningStrong = 0
        for position in 0..<count {
            let key = slots.key(at: position)
            check(key.registration > previous, "the slot at \(position) is out of registration order")
            previous = key.registration
            if key.isCallable {
                registered += 1
                let address = slots.address(at: position)
                check(
                    indexLists(position, address: address), "the index does not list the registered slot at \(position)"
                )
            } else if key.ownsReferences {
                owning.append(position)
                if key.isStrong { owningStrong += 1 }
            }
        }
        check(
            previous <= newestRegistration, "a slot has registration \(previous), after the last, \(newestRegistration)"
        )
        check(vacancies == count - registered, "\(vacancies) vacancies counted, \(count - registered) found")
        check(index.count == registered, "the index lists \(index.count) slots, \(registered) are registered")
        let pending = deferred.pending.sorted()
        check(pending == owning, "pending lists \(pending), the removed slots that own references are \(owning)")
        check(
            deferred.pendingStrong == owningStrong,
            "\(deferred.pendingStrong) pending strong delegates counted, \(owningStrong) found")
        check(deferred.retired?.isEmpty != true, "the list of retired storages is empty, where it should be nil")
    }

    /// Whether the index lists `position`, the slot of `address`, in the probe run where lookups look for it.
    func indexLists(_ position: Int, address: UInt) -> Bool {
        var bucket = index.home(of: address)
        while let listed = index.position(inBucket: bucket) {
            if listed == position { return true }
            bucket = index.bucket(after: bucket)
        }
        return false
    }
}
#endif
