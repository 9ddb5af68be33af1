import Testing

@testable import Multicast

/// Every kind of type that can hold a class instance, as a multicast's `Delegate`: each one works the same
/// way, or is refused with a message that names it.
@MainActor
@Suite struct DelegateTypeTests {
    let log = CallLog()

    @Test func concreteClass() {
        checkDelegateType(MulticastDelegate<Probe>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func superclass() {
        checkDelegateType(MulticastDelegate<ProbeBase>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func anyObject() {
        checkDelegateType(
            MulticastDelegate<AnyObject>(), make: probe, wrap: { $0 }, hear: { ($0 as! Probe).hear() })
    }

    @Test func classBoundProtocol() {
        checkDelegateType(
            MulticastDelegate<any ClassBoundEvents>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func protocolThatIsNotClassBound() {
        checkDelegateType(MulticastDelegate<any OpenEvents>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func protocolComposition() {
        checkDelegateType(
            MulticastDelegate<any OpenEvents & Tagged>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func compositionWithASuperclass() {
        checkDelegateType(
            MulticastDelegate<any ProbeBase & OpenEvents>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func any() {
        checkDelegateType(MulticastDelegate<Any>(), make: probe, wrap: { $0 }, hear: { ($0 as! Probe).hear() })
    }

    /// An `Any` that generic code wrapped a second time keeps the inner `Any` in a box: the multicast finds
    /// the instance through a cast, and stores it unboxed.
    @Test func anyThatHoldsAnotherAny() {
        let probe = probe("probe")
        let firstWord = firstWord(of: wrapTwice(probe), as: Any.self)
        #expect(firstWord != UInt(bitPattern: Unmanaged.passUnretained(probe).toOpaque()))  // a box, not the probe
        checkDelegateType(MulticastDelegate<Any>(), make: self.probe, wrap: wrapTwice, hear: { ($0 as! Probe).hear() })
    }

    @Test func protocolThatRefinesError() {
        checkDelegateType(MulticastDelegate<any FailureEvents>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func mainActorProtocol() {
        checkDelegateType(MulticastDelegate<any ScreenEvents>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    func probe(_ name: String) -> Probe {
        Probe(name, log: log)
    }

    /// Adds, adds again, calls, finds, counts and removes delegates of one type, and checks that a weak one
    /// that dies is gone, that a strong one is released when removed, and that nothing is leaked.
    func checkDelegateType<Object: AnyObject, Delegate>(
        _ delegates: MulticastDelegate<Delegate>,
        make: (String) -> Object,
        wrap: (Object) -> Delegate,
        hear: (Delegate) -> Void
    ) {
        var everyObject: [() -> AnyObject?] = []
        do {
            let (a, b, c) = (make("a"), make("b"), make("c"))
            everyObject += [{ [weak a] in a }, { [weak b] in b }, { [weak c] in c }]
            #expect(delegates.add(wrap(a)))
            #expect(delegates.add(wrap(b), retention: .strong))
            #expect(delegates.add(wrap(c)))
            #expect(!delegates.add(wrap(a)))
            #expect(!delegates.add(wrap(b), retention: .weak))
            delegates.call(hear)
            #expect(log.calls == ["a", "b", "c"])
            #expect(delegates.contains(wrap(a)) && delegates.contains(wrap(b)) && delegates.contains(wrap(c)))
            #expect(delegates.count == 3)

            #expect(delegates.remove(wrap(a)))
            #expect(!delegates.remove(wrap(a)))
            #expect(!delegates.contains(wrap(a)))
            #expect(delegates.count == 2)
            log.clear()
            delegates.call(hear)
            #expect(log.calls == ["b", "c"])

            do {
                let dying = make("dying")
                everyObject.append { [weak dying] in dying }
                #expect(delegates.add(wrap(dying)))
                #expect(delegates.count == 3)
            }
            #expect(everyObject.last!() == nil)  // held weakly
            #expect(delegates.count == 2)
            log.clear()
            delegates.call(hear)
            #expect(log.calls == ["b", "c"])
        }
        #expect(everyObject[1]() != nil)  // "b" is held strongly
        #expect(delegates.remove(wrap(everyObject[1]() as! Object)))
        #expect(everyObject.allSatisfy { $0() == nil })
        #expect(delegates.isEmpty)
    }
}

/// `value` in an `Any`, as generic code wraps it: `Value` may be `Any` itself, whose values are then boxed. (The
/// metatype keeps Swift 6 from opening an `Any` argument, which would unwrap it.)
func wrapAgain<Value>(_ value: Value, as _: Value.Type) -> Any { value }

/// The first word of `value`'s own representation (for an `Any`, of its container, not of what it holds).
func firstWord<Value>(of value: Value, as _: Value.Type) -> UInt {
    withUnsafeBytes(of: value) { $0.load(as: UInt.self) }
}

/// A probe in an `Any` in an `Any`.
func wrapTwice(_ probe: Probe) -> Any {
    let inner: Any = probe
    return wrapAgain(inner, as: Any.self)
}

class ProbeBase {
    let name: String
    let log: CallLog

    init(_ name: String, log: CallLog) {
        self.name = name
        self.log = log
    }

    func hear() {
        log.append(name)
    }
}

protocol ClassBoundEvents: AnyObject {
    func hear()
}

protocol OpenEvents {
    func hear()
}

protocol Tagged {}

protocol FailureEvents: Error {
    func hear()
}

// Unchecked: `FailureEvents` is an `Error`, so `Sendable`; the tests use a probe on one thread at a time.
final class Probe: ProbeBase, ClassBoundEvents, OpenEvents, Tagged, FailureEvents, @unchecked Sendable {}

@MainActor
protocol ScreenEvents: AnyObject {
    func hear()
}

// An isolated conformance: the probe answers main-actor events on the main actor.
extension Probe: @MainActor ScreenEvents {}
