#if MULTICAST_INTERNAL_CHECKS
extension _Registry {
    /// Stops the program unless the registry's invariant holds (see ``_Registry``). `_Locked.change(_:)` calls
    /// it after every change when the package is built with `MULTICAST_INTERNAL_CHECKS`, as CI's test runs are.
    @usableFromInline
    func checkInvariants() {
        func check(_ condition: Bool, _ message: @autoclosure () -> String) {
            precondition(condition, "Multicast's internal check failed: \(message())")
        }
        let count = storage.count
        check(count <= storage.capacity, "\(count) slots in use in a storage of \(storage.capacity)")
        var previous: Int64 = 0
        var registered = 0
        var owning: [Int] = []
        var owningStrong = 0
        for position in 0..<count {
            let key = storage.key(at: position)
            check(key.registration > previous, "the slot at \(position) is out of registration order")
            previous = key.registration
            if key.isCallable {
                registered += 1
                let address = storage.address(at: position)
                check(
                    index.firstBucket(for: address) { $0 == position } != nil,
                    "the index does not list the registered slot at \(position)")
            } else if key.ownsReferences {
                owning.append(position)
                if key.isStrong { owningStrong += 1 }
            }
        }
        check(previous <= lastRegistration, "a slot has registration \(previous), after the last, \(lastRegistration)")
        check(vacancies == count - registered, "\(vacancies) vacancies counted, \(count - registered) found")
        check(index.count == registered, "the index lists \(index.count) slots, \(registered) are registered")
        check(
            pending.sorted() == owning,
            "pending lists \(pending.sorted()), the removed slots that own references are \(owning)")
        check(pendingStrong == owningStrong, "\(pendingStrong) pending strong delegates counted, \(owningStrong) found")
    }
}
#endif
