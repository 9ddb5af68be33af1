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
