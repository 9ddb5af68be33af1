import Testing

@testable import Multicast
@testable import _MulticastCore

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

    /// A class-bound composition of three words, an object and two witness tables: known to be references, but
    /// more than the two words that `add`, `remove` and `contains` read from a value's bits, so they cast it.
    @Test func classBoundCompositionOfThreeWords() {
        let delegates = MulticastDelegate<any ClassBoundEvents & Tagged>()
        #expect(delegates._core.delegatesAreReferences)
        #expect(unsafe _DelegateBits(of: probe("x") as any ClassBoundEvents & Tagged) == nil)
        checkDelegateType(delegates, make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    /// A composition of three protocols that are not class-bound: seven words, more than `call` lends from its
    /// stack space, so it lends from a variable; a body that throws leaves every delegate's count as it was.
    @Test func compositionOfMoreThanSixWords() {
        typealias Delegate = any OpenEvents & Tagged & Labeled
        #expect(MemoryLayout<Delegate>.size > MemoryLayout<_LendingSpace>.size)
        let delegates = MulticastDelegate<Delegate>()
        do {
            let thrower = probe("thrower")
            delegates.add(thrower, retention: .strong)
            #expect(throws: Stop.self) { try delegates.call { _ throws(Stop) in throw Stop(name: "body") } }
            #expect(delegates.remove(thrower))
            log.clear()
        }
        checkDelegateType(delegates, make: probe, wrap: { $0 }, hear: { $0.hear() })
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

    @Test func compositionOfASuperclassAndAClassBoundProtocol() {
        checkDelegateType(
            MulticastDelegate<any ProbeBase & ClassBoundEvents>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    /// `Error` with another protocol: the runtime gives it the layout of any composition, and no box.
    @Test func compositionOfAClassBoundProtocolAndError() {
        checkDelegateType(
            MulticastDelegate<any ClassBoundEvents & Error>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func compositionOfAProtocolThatIsNotClassBoundAndError() {
        checkDelegateType(MulticastDelegate<any OpenEvents & Error>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    /// A constrained protocol: an extended existential, whose metadata is of a kind of its own.
    @Test func constrainedProtocol() {
        checkDelegateType(MulticastDelegate<any Source<Int>>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func constrainedClassBoundProtocol() {
        checkDelegateType(
            MulticastDelegate<any ClassBoundSource<Int>>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    /// Where the layout that `MemoryLayout` gives disagrees with the metadata's, the multicast finds each
    /// delegate's object with a cast (the checked path) instead of reading it, and works the same.
    @Test func aLayoutThatDisagreesWithTheMetadataTakesTheCheckedPath() {
        let word = MemoryLayout<UnsafeRawPointer>.size
        let agreeing = MulticastDelegate<any ClassBoundEvents>(
            choosingTheFastPathFromSize: 2 * word, alignment: MemoryLayout<UnsafeRawPointer>.alignment)
        #expect(agreeing._core.delegatesAreReferences)
        for (size, alignment) in [(word, word), (3 * word, word), (2 * word, 1)] {
            let delegates = MulticastDelegate<any ClassBoundEvents>(
                choosingTheFastPathFromSize: size, alignment: alignment)
            #expect(!delegates._core.delegatesAreReferences)
            log.clear()
            checkDelegateType(delegates, make: probe, wrap: { $0 }, hear: { $0.hear() })
        }
    }

    /// Each layout a multicast accepts, as the refusal at `init` reads it from the metadata and `MemoryLayout`;
    /// a kind of metadata that a later runtime may add is accepted, and a layout that disagrees is refused.
    @Test func theRefusalAtInitAcceptsEveryLayoutThatCanHoldAnInstance() {
        func refusal<Delegate>(_: Delegate.Type) -> MulticastDelegate<Delegate>._TypeRefusal? {
            MulticastDelegate<Delegate>._refusal(
                kind: _MetadataKind(Delegate.self), flags: _ExistentialFlags(Delegate.self),
                size: MemoryLayout<Delegate>.size, alignment: MemoryLayout<Delegate>.alignment)
        }
        #expect(refusal(Probe.self) == nil)
        #expect(refusal(AnyObject.self) == nil)
        #expect(refusal(Any.self) == nil)
        #expect(refusal((any ClassBoundEvents).self) == nil)
        #expect(refusal((any OpenEvents).self) == nil)
        #expect(refusal((any ProbeBase & ClassBoundEvents).self) == nil)
        #expect(refusal((any ProbeBase & OpenEvents).self) == nil)
        #expect(refusal((any ClassBoundEvents & Error).self) == nil)
        #expect(refusal((any Source<Int>).self) == nil)
        #expect(refusal((any FailureEvents).self) == nil)
        #expect(refusal((any Error).self) == .errorExistential)
        #expect(refusal((any Error & AnyObject).self) == .errorExistential)
        #expect(refusal((any ProbeBase & Error).self) == .errorExistential)
        #expect(refusal(Int.self) == .neitherClassNorProtocol)

        let word = MemoryLayout<UnsafeRawPointer>.size
        let classBound = _ExistentialFlags((any ClassBoundEvents).self)
        #expect(
            MulticastDelegate<any ClassBoundEvents>._refusal(
                kind: .existential, flags: classBound, size: word, alignment: word)
                == .layout(size: word, alignment: word, described: 2 * word))
        #expect(_MetadataKind(rawValue: 0x3FF) == nil)  // a kind this runtime does not have
        #expect(MulticastDelegate<AnyObject>._refusal(kind: nil, flags: nil, size: 3, alignment: 1) == nil)
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
            #expect(!delegates.add(wrap(b), retention: .strong))
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

protocol Labeled {}

protocol Source<Element> {
    associatedtype Element
    func hear()
}

protocol ClassBoundSource<Element>: AnyObject {
    associatedtype Element
    func hear()
}

protocol FailureEvents: Error {
    func hear()
}

// Unchecked: `FailureEvents` is an `Error`, so `Sendable`; the tests use a probe on one thread at a time.
final class Probe: ProbeBase, ClassBoundEvents, OpenEvents, Tagged, Labeled, FailureEvents, Source,
    ClassBoundSource, @unchecked Sendable
{
    typealias Element = Int
}

@MainActor
protocol ScreenEvents: AnyObject {
    func hear()
}

// An isolated conformance: the probe answers main-actor events on the main actor.
extension Probe: @MainActor ScreenEvents {}
