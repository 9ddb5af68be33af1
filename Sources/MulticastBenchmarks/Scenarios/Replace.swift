import Multicast

/// Replaces one owner's registration among `size` owned registrations, again and again: nanoseconds per
/// replace. This is what an observer costs that registers anew, with new state, while it lives (a store's
/// subscriber whose options changed); the figure must not grow with `size`.
///
/// Sixteen owners spread over the registrations take turns, each between two delegates of its own, so that no
/// replace adds the delegate it replaces. No delegate is released by a replace: all are kept for the check.
/// Each replace leaves an ended registration behind, which the multicast compacts away now and then, at a cost
/// that grows with `size`: a sample makes at least `4 * size` replaces, so that it spans several compactions
/// and its figure is the amortized cost, as a sample of the bulk scenario's is.
func measureReplace(size: Int, settings: Settings) -> Figure {
    let replacing = Replacing(size: size)
    let repetitions = Swift.max(4 * size, calibrate(target: settings.sampleNanoseconds, replacing.replace))
    let samples = size >= 100_000 ? Swift.max(3, settings.samples / 3) : settings.samples
    var figure = Figure()
    for _ in 0..<samples {
        let start = now()
        replacing.replace(repetitions)
        figure.samples.append(Double(now() - start) / Double(repetitions))
    }
    replacing.checkEachCalledOnce()
    return figure
}

/// A multicast of `size` delegates, each owned by an owner of its own, whose owners replace their registrations.
final class Replacing {
    let delegates = MulticastDelegate<any Receiver>()
    let owners: [Owner]
    /// Two delegates for each owner that replaces, which it alternates between.
    let replacements: [Counter]
    let firstDelegates: [Counter]
    /// The replaces made so far, whose count chooses the next owner and its delegate.
    var made = 0

    init(size: Int) {
        precondition(size >= 16, "replacing needs at least 16 owned registrations")
        owners = (0..<size).map { _ in Owner() }
        firstDelegates = owners.map { _ in Counter() }
        replacements = (0..<32).map { _ in Counter() }
        for (delegate, owner) in zip(firstDelegates, owners) { delegates.add(delegate, ownedBy: owner) }
    }

    /// Makes `count` replaces: the sixteen owners in turn, each with the other of its two delegates.
    func replace(_ count: Int) {
        for _ in 0..<count {
            let turn = made & 15
            delegates.add(replacements[turn * 2 + ((made >> 4) & 1)], ownedBy: owners[turn * owners.count / 16])
            made += 1
        }
    }

    /// Stops the run unless one call reaches each owner's current delegate, and only it, once.
    func checkEachCalledOnce() {
        let all = firstDelegates + replacements
        let before = all.reduce(0) { $0 + $1.total }
        delegates.call { $0.receive(1) }
        let after = all.reduce(0) { $0 + $1.total }
        check(delegates.count == owners.count, "replacing changed the number of registrations")
        check(after - before == owners.count, "a call after replacing did not reach each owner's delegate once")
        for turn in 0..<16 {
            let owner = owners[turn * owners.count / 16]
            let current = delegates.delegate(ownedBy: owner)
            check(current === replacements[turn * 2] || current === replacements[turn * 2 + 1], "a replace was lost")
        }
    }
}
