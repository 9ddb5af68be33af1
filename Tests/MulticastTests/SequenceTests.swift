import Testing

@testable import Multicast

/// Answers from the delegates: the `Sequence` methods, through the iterator or the members that shadow them.
@Suite struct SequenceTests {
    let log = CallLog()

    func recorders(_ names: String...) -> [Recorder] {
        names.map { Recorder($0, log: log) }
    }

    @Test func sequenceMethodsReturnWhatTheDelegatesAnswer() {
        let delegates = MulticastDelegate<any Listener>()
        let all = recorders("a", "bb", "ccc")
        defer { extendLifetime(all) }
        for delegate in all { delegates.add(delegate) }
        #expect(delegates.map(\.name.count) == [1, 2, 3])
        #expect(delegates.compactMap { $0.name.count > 1 ? $0.name : nil } == ["bb", "ccc"])
        #expect(delegates.reduce(0) { $0 + $1.name.count } == 6)
        #expect(delegates.allSatisfy { !$0.name.isEmpty })
        #expect(!delegates.allSatisfy { $0.name.count < 3 })
        #expect(delegates.contains { $0.name == "bb" })
        #expect(!delegates.contains { $0.name == "d" })
        #expect(delegates.first { $0.name.count > 1 }?.name == "bb")
    }

    @Test func iterationTakesItsSnapshotAtMakeIterator() {
        let delegates = MulticastDelegate<any Listener>()
        let all = recorders("0", "1", "2")
        defer { extendLifetime(all) }
        delegates.add(all[0])
        delegates.add(all[1])
        var iterator = delegates.makeIterator()
        delegates.add(all[2])  // after the snapshot: not visited
        #expect(iterator.next()?.name == "0")
        delegates.remove(all[1])  // before its turn: not visited
        #expect(iterator.next() == nil)
        #expect(delegates.map(\.name) == ["0", "2"])
    }

    /// What an iterator returns is the caller's alone, whatever holds the delegate and however its type stores it:
    /// it dies with the caller's last reference (a weak delegate's returned reference is the count that its weak
    /// load took; a strong one's, a retain).
    @Test(arguments: [Retention.weak, .strong])
    func aDelegateThatAnIteratorReturnsDiesWithTheCallersLastReference(_ retention: Retention) {
        expectReleasedWithTheReturnedReferences(MulticastDelegate<any Listener>(), retention) { $0 }
        expectReleasedWithTheReturnedReferences(MulticastDelegate<AnyObject>(), retention) { $0 }
        expectReleasedWithTheReturnedReferences(MulticastDelegate<Any>(), retention) { $0 }
        expectReleasedWithTheReturnedReferences(MulticastDelegate<any Named>(), retention) { $0 }
    }

    func expectReleasedWithTheReturnedReferences<Delegate>(
        _ multicast: MulticastDelegate<Delegate>, _ retention: Retention, _ delegate: (Recorder) -> Delegate,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        weak var released: Recorder?
        var returned: [Delegate] = []
        do {
            let recorder = Recorder("r", log: log)
            released = recorder
            multicast.add(delegate(recorder), retention: retention)
            returned = Array(multicast) + Array(multicast)  // two iterations, two references
        }
        multicast.removeAll()
        #expect(released != nil, "kept by the references returned", sourceLocation: sourceLocation)
        returned.removeFirst()
        #expect(released != nil, "kept by the other", sourceLocation: sourceLocation)
        returned.removeAll()
        #expect(released == nil, "released with the last", sourceLocation: sourceLocation)
    }

    @Test func mapAsksEveryDelegateOnceInOrderAndSkipsTheRemovedAndTheDead() {
        let delegates = MulticastDelegate<any Listener>()
        let all = recorders("0", "1", "2")
        for delegate in all { delegates.add(delegate) }
        do {
            let dying = Recorder("dying", log: log)
            delegates.add(dying)
        }
        all[0].onHear = { _ in delegates.remove(all[1]) }  // before its turn
        let answers = delegates.map { delegate -> String in
            delegate.hear(1)
            return delegate.name
        }
        #expect(answers == ["0", "2"])
        #expect(log.calls == ["0", "2"])
    }

    @Test func mapStopsAtTheFirstErrorAndKeepsItsType() {
        struct Refused: Error, Equatable {
            let name: String
        }
        let delegates = MulticastDelegate<any Listener>()
        let all = recorders("0", "1", "2")
        for delegate in all { delegates.add(delegate) }
        func names() throws(Refused) -> [String] {
            try delegates.map { delegate throws(Refused) in
                delegate.hear(1)
                if delegate.name == "1" { throw Refused(name: delegate.name) }
                return delegate.name
            }
        }
        do {
            _ = try names()
            Issue.record("map did not throw")
        } catch {
            #expect(error == Refused(name: "1"))  // compiles only because `error` is a `Refused`
        }
        #expect(log.calls == ["0", "1"])
        withExtendedLifetime(all) {}
    }
}

/// A protocol that is not class-bound, whose values a multicast finds its objects in by a cast.
protocol Named {
    var name: String { get }
}

extension Recorder: Named {}
