import MulticastChecks
import Testing

@testable import Multicast

/// What `print`, `debugPrint`, `dump` and a debugger show of a multicast: the live delegates in call order, each
/// with its retention, read without the lock held and without keeping a weak delegate alive.
@Suite struct DescriptionTests {
    let log = CallLog()

    @Test func descriptionListsTheLiveDelegatesInCallOrderWithTheirRetention() {
        let delegates = MulticastDelegate<any Listener>()
        let first = NamedRecorder("first", log: log)
        let third = NamedRecorder("third", log: log)
        delegates.add(first)
        _ = addStrongRecorder("second", to: delegates, log: log)
        delegates.add(third)
        #expect(
            delegates.description
                == "MulticastDelegate<Listener>[first (weak), MulticastTests.Recorder (strong), third (weak)]")
        delegates.remove(first)
        #expect(
            delegates.description == "MulticastDelegate<Listener>[MulticastTests.Recorder (strong), third (weak)]")
        #expect(MulticastDelegate<any Listener>().description == "MulticastDelegate<Listener>[]")
    }

    @Test func descriptionLeavesOutADeallocatedDelegate() {
        let delegates = MulticastDelegate<any Listener>()
        let kept = NamedRecorder("kept", log: log)
        delegates.add(kept)
        do {
            let gone = NamedRecorder("gone", log: log)
            delegates.add(gone)
            #expect(delegates.description == "MulticastDelegate<Listener>[kept (weak), gone (weak)]")
        }
        #expect(delegates.description == "MulticastDelegate<Listener>[kept (weak)]")
    }

    @Test func debugDescriptionReflectsEachDelegate() {
        let delegates = MulticastDelegate<any Listener>()
        let recorder = NamedRecorder("first", log: log)
        delegates.add(recorder)
        #expect(
            String(reflecting: delegates)
                == "Multicast.MulticastDelegate<MulticastTests.Listener>[NamedRecorder(\"first\") (weak)]")
        #expect(delegates.debugDescription == String(reflecting: delegates))
        #expect(String(describing: delegates) == delegates.description)
    }

    @Test func mirrorHasOneChildPerLiveDelegateLabelledWithItsRetention() {
        let delegates = MulticastDelegate<any Listener>()
        let first = NamedRecorder("first", log: log)
        delegates.add(first)
        let strong = addStrongRecorder("second", to: delegates, log: log)
        let mirror = Mirror(reflecting: delegates)
        #expect(mirror.displayStyle == .collection)
        #expect(mirror.children.map(\.label) == ["weak", "strong"])
        let values = mirror.children.map { String(reflecting: $0.value) }
        #expect(values.first == "NamedRecorder(\"first\")")
        #expect((Array(mirror.children).last?.value as? Recorder) === strong())

        var dumped = ""
        dump(delegates, to: &dumped)
        #expect(
            dumped.hasPrefix("▿ 2 elements #0\n  ▿ weak: NamedRecorder(\"first\")\n    - name: \"first\"\n"),
            "\(dumped)")
        #expect(dumped.contains("▿ strong: MulticastTests.Recorder"), "\(dumped)")
    }

    @Test func describingKeepsNoWeakDelegateAlive() {
        let delegates = MulticastDelegate<any Listener>()
        var mirror: Mirror?
        let died = isDeallocated(
            { NamedRecorder("weak", log: log) },
            after: { recorder in
                delegates.add(recorder)
                #expect(delegates.description.contains("weak (weak)"))
                #expect(delegates.debugDescription.contains("NamedRecorder(\"weak\") (weak)"))
                mirror = delegates.customMirror
            }
        )
        #expect(died, "the description or the mirror kept a weakly held delegate alive")
        #expect(mirror.map { $0.children.map { String(reflecting: $0.value) } } == ["nil"])
    }

    @Test func aDelegatesOwnDescriptionRunsWithoutTheLockHeld() {
        let delegates = MulticastDelegate<any Listener & Sendable>()
        let other = SharedListener("other")
        // While it is described, the delegate has another thread add, count and remove: each takes the
        // multicast's lock, so the thread finishes only if describing does not hold it.
        let reentrant = NamedRecorder("reentrant", log: log) { recorder in
            let counted = Guarded(-1)
            let finished = runOnThreads(1, timeout: 10) { _ in
                delegates.add(other)
                counted.withValue { $0 = delegates.count }
                delegates.remove(other)
            }
            recorder.seen.append(finished ? counted.value : -1)
        }
        delegates.add(reentrant)
        #expect(delegates.description == "MulticastDelegate<Listener>[reentrant (weak)]")
        #expect(String(reflecting: delegates).contains("NamedRecorder(\"reentrant\") (weak)"))
        var dumped = ""
        dump(delegates, to: &dumped)
        #expect(
            reentrant.seen == [2, 2, 2], "-1: another thread could not take the lock while a delegate was described")
    }
}

/// A recorder that describes itself by its name, and may run code of its own while it does.
///
/// Unchecked: `seen` is only changed by the thread that describes the recorder.
final class NamedRecorder: Listener, CustomStringConvertible, CustomDebugStringConvertible, @unchecked Sendable {
    let name: String
    let log: CallLog
    let whileDescribed: (@Sendable (NamedRecorder) -> Void)?
    var seen: [Int] = []

    init(_ name: String, log: CallLog, whileDescribed: (@Sendable (NamedRecorder) -> Void)? = nil) {
        self.name = name
        self.log = log
        self.whileDescribed = whileDescribed
    }

    func hear(_ event: Int) { log.append(name) }

    var description: String {
        whileDescribed?(self)
        return name
    }

    var debugDescription: String {
        whileDescribed?(self)
        return "NamedRecorder(\"\(name)\")"
    }
}
